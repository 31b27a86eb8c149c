//! Snapshots of the command line, kept in `tests/cmd/*.md` with trycmd: the
//! help of the binary and of every command, and the messages and exit codes
//! of bad input. Each file reads as a terminal session; after a deliberate
//! change of wording, record them again with
//! `TRYCMD=overwrite cargo test --test it snapshots`.

#[test]
fn help_texts_and_error_messages_match_their_snapshots() {
    trycmd::TestCases::new()
        .register_bin(
            "towerlab",
            std::path::Path::new(env!("CARGO_BIN_EXE_towerlab")),
        )
        // Help is wrapped to the terminal's width: fix it.
        .env("COLUMNS", "100")
        .case("tests/cmd/*.md");
}
