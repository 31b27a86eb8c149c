//! The shipped `rules/` and `variants/` are built into the binary: build it
//! again when a file there is added, changed or removed.

fn main() {
    println!("cargo::rerun-if-changed=rules");
    println!("cargo::rerun-if-changed=variants");
}
