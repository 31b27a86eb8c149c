//! The shipped `rules/` and `variants/` are built into the binary: build it
//! again when a file there is added, changed or removed.
//!
//! The HTML report's browser test needs `chromium` on `PATH`. When it is not
//! there and `TOWERLAB_REQUIRE_BROWSER` is unset, the build sets the cfg
//! `no_browser`, under which that test is marked ignored (so `cargo test`
//! shows it as ignored, not as passed); with `TOWERLAB_REQUIRE_BROWSER=1`
//! (CI) it runs, and fails without a browser.

fn main() {
    println!("cargo::rerun-if-changed=rules");
    println!("cargo::rerun-if-changed=variants");
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=TOWERLAB_REQUIRE_BROWSER");
    println!("cargo::rustc-check-cfg=cfg(no_browser)");
    let required = std::env::var_os("TOWERLAB_REQUIRE_BROWSER").is_some_and(|v| !v.is_empty());
    if !required && !chromium_on_path() {
        println!("cargo::rustc-cfg=no_browser");
    }
}

fn chromium_on_path() -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("chromium").is_file()))
}
