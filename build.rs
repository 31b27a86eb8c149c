//! The shipped `rules/` and `variants/` are built into the binary: build it
//! again when a file there is added, changed or removed.
//!
//! The browser tests (the report's and the browser game's, driven by
//! `tests/it/browser.rs`) need `chromium` on `PATH`. When it is not there and
//! `TOWERLAB_REQUIRE_BROWSER` is unset, the build sets the cfg `no_browser`,
//! under which both are marked ignored (so `cargo test` shows them as
//! ignored, not as passed); with `TOWERLAB_REQUIRE_BROWSER=1` (CI) they run,
//! and fail without a browser.

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
