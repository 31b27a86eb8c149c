//! `towerlab serve` on the command line: a port in use and `--open` without
//! a browser each said in one line.

use super::*;

/// `serve` on a port another program holds: one `error:` line that
/// suggests `--port`, and exit code 1.
#[test]
fn serve_on_a_port_in_use_suggests_another() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = towerlab()
        .args(["serve", "--port", &port])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: port "), "{err}");
    assert!(err.contains("--port"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `serve --open` where no browser opens says so in one line, with the
/// address, and not the opener's own messages; the server goes on.
#[test]
fn serve_open_without_a_browser_says_so_once() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::fs::PermissionsExt;
    let dir = crate::common::Scratch::new("no-browser");
    let opener = dir.write(
        "xdg-open",
        "#!/bin/sh\necho 'xdg-open: no method available' >&2\necho noise\nexit 3\n",
    );
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = std::env::join_paths(
        std::iter::once(dir.path().to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let mut child = towerlab()
        .args(["serve", "--port", "0", "--open"])
        .env("PATH", path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let first = BufReader::new(stderr).lines().next();
    let stdout = child.stdout.take().unwrap();
    let mut out = String::new();
    BufReader::new(stdout).read_line(&mut out).unwrap();
    let alive = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    let first = first.expect("a line on stderr").unwrap();
    assert!(
        first.starts_with("could not open a browser (xdg-open failed"),
        "{first}"
    );
    assert!(first.contains("http://127.0.0.1:"), "{first}");
    assert!(alive, "the server goes on");
    assert!(!out.contains("noise"), "{out}");
}
