//! The documentation holds together: every relative link and anchor of
//! README.md, ARCHITECTURE.md and docs/ leads somewhere, every page of the
//! book (docs/SUMMARY.md) links only inside the book, every page of docs/
//! is in the book, and no page outgrows the size a reader takes in
//! (README 250 lines, a page of docs/ 600).
//!
//! Written by hand rather than taken from a link checker: the maintained
//! checkers either check the built book only (mdbook-linkcheck, whose last
//! release is years old and which pins an mdBook version) — not README.md
//! and ARCHITECTURE.md, read on the repository's page — or are a large
//! program to compile in CI for what is here a few dozen lines (lychee). The
//! anchors are those GitHub and mdBook both give a heading: lower case,
//! letters, digits, `-` and `_` kept, spaces made `-`, the rest dropped,
//! and `-1`, `-2`… after a repeated one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The text of `markdown` less its fenced code blocks and inline code,
/// with its line breaks kept (so line numbers stay right).
fn prose(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(&without_code_spans(line));
        }
        out.push('\n');
    }
    out
}

/// `line` with every `` `code` `` span blanked.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code {
            out.push(c);
        }
    }
    out
}

/// Every link target of `markdown` (`[text](target)` and images) with its
/// line: the text between `](` and the closing `)` or a space (a title).
fn links(markdown: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in prose(markdown).lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let target = &rest[at + 2..];
            let end = target.find([')', ' ']).unwrap_or(target.len());
            found.push((i + 1, target[..end].to_string()));
            rest = &target[end..];
        }
    }
    found
}

/// The anchor GitHub and mdBook give a heading's text.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of `markdown`'s headings (outside code blocks), a repeated
/// one numbered as GitHub and mdBook number it.
fn anchors(markdown: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let Some(text) = line.strip_prefix('#') else {
            continue;
        };
        if fenced {
            continue;
        }
        let base = slug(text.trim_start_matches('#').replace('`', "").as_str());
        let n = seen.entry(base.clone()).or_default();
        out.push(match *n {
            0 => base.clone(),
            k => format!("{base}-{k}"),
        });
        *n += 1;
    }
    out
}

/// What is wrong with the link `target` written in the file `from`, if
/// anything: a file that does not exist, or an anchor no heading has.
fn broken(from: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (file, anchor) = match target.split_once('#') {
        Some((file, anchor)) => (file, Some(anchor)),
        None => (target, None),
    };
    let path = match file {
        "" => from.to_path_buf(),
        file => from.parent().expect("a folder").join(file),
    };
    if !path.exists() {
        return Some(format!("no file {}", path.display()));
    }
    let anchor = anchor?;
    let text = std::fs::read_to_string(&path).ok()?;
    (!anchors(&text).iter().any(|a| a == anchor)).then(|| {
        format!(
            "no heading of {} has the anchor `#{anchor}`",
            path.display()
        )
    })
}

/// Every markdown file under `dir`, recursively.
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(markdown_files(&path));
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The broken links of `files`, one line each: `file:line: target: why`.
fn broken_links(files: &[PathBuf]) -> Vec<String> {
    let mut problems = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).expect("a page");
        for (line, target) in links(&text) {
            if let Some(why) = broken(file, &target) {
                problems.push(format!("{}:{line}: `{target}`: {why}", file.display()));
            }
        }
    }
    problems
}

/// The pages the book's table of contents lists, as paths.
fn book_pages(docs: &Path) -> Vec<PathBuf> {
    let summary = std::fs::read_to_string(docs.join("SUMMARY.md")).expect("docs/SUMMARY.md");
    let mut pages: Vec<PathBuf> = links(&summary)
        .into_iter()
        .map(|(_, target)| docs.join(target))
        .collect();
    pages.push(docs.join("SUMMARY.md"));
    pages
}

/// The links of the book's `pages` that leave the book's folder `docs`: in
/// the built book they lead nowhere.
fn links_out_of_the_book(docs: &Path, pages: &[PathBuf]) -> Vec<String> {
    let docs = docs.canonicalize().expect("docs/");
    let mut problems = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(page).expect("a page");
        for (line, target) in links(&text) {
            let file = target.split('#').next().unwrap_or_default();
            if target.contains("://") || file.is_empty() {
                continue;
            }
            let path = page.parent().expect("a folder").join(file);
            // A missing file is a broken link, found by `broken_links`.
            let outside = path.canonicalize().is_ok_and(|p| !p.starts_with(&docs));
            if outside {
                problems.push(format!(
                    "{}:{line}: `{target}` leaves the book (docs/)",
                    page.display()
                ));
            }
        }
    }
    problems
}

#[test]
fn every_relative_link_and_anchor_of_the_documentation_leads_somewhere() {
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    files.extend(markdown_files(&root.join("docs")));
    let problems = broken_links(&files);
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_book_lists_every_page_of_docs_and_links_only_inside_itself() {
    let docs = root().join("docs");
    let pages = book_pages(&docs);
    let missing: Vec<String> = markdown_files(&docs)
        .into_iter()
        .filter(|p| !p.starts_with(docs.join("examples")))
        .filter(|p| !pages.contains(p))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        missing.is_empty(),
        "pages of docs/ not in docs/SUMMARY.md (the book leaves them out):\n{}",
        missing.join("\n")
    );
    let out = links_out_of_the_book(&docs, &pages);
    assert!(out.is_empty(), "{}", out.join("\n"));
}

#[test]
fn readme_and_every_page_stay_short() {
    let root = root();
    let lines = |p: &Path| std::fs::read_to_string(p).expect("a page").lines().count();
    let readme = lines(&root.join("README.md"));
    assert!(readme <= 250, "README.md is {readme} lines (at most 250)");
    let long: Vec<String> = markdown_files(&root.join("docs"))
        .into_iter()
        .map(|p| (lines(&p), p))
        .filter(|(n, _)| *n > 600)
        .map(|(n, p)| format!("{}: {n} lines", p.display()))
        .collect();
    assert!(
        long.is_empty(),
        "pages over 600 lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_checker_finds_a_planted_broken_link_anchor_and_link_out_of_the_book() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let docs = dir.path().join("docs");
    std::fs::create_dir(&docs).expect("docs/");
    let page = docs.join("page.md");
    std::fs::write(
        &page,
        "# A page\n\n## Its `second` part\n\n[ok](#its-second-part) [ok](page.md#a-page)\n\
         [gone](missing.md) [no anchor](#nowhere)\n`[in code](missing.md)`\n\
         ```\n[in a block](missing.md)\n```\n[out](../outside.md)\n",
    )
    .expect("the page");
    std::fs::write(dir.path().join("outside.md"), "# Outside\n").expect("outside");
    std::fs::write(docs.join("SUMMARY.md"), "- [A page](page.md)\n").expect("summary");
    let problems = broken_links(std::slice::from_ref(&page));
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains(":6: `missing.md`: no file"),
        "{problems:?}"
    );
    assert!(
        problems[1].contains(":6: `#nowhere`: no heading"),
        "{problems:?}"
    );
    let out = links_out_of_the_book(&docs, &book_pages(&docs));
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].contains("`../outside.md` leaves the book"),
        "{out:?}"
    );
}

#[test]
fn anchors_are_made_as_github_and_mdbook_make_them() {
    assert_eq!(slug("Composition: previous"), "composition-previous");
    assert_eq!(
        slug("Tutorial: an event rule from scratch — the toll road"),
        "tutorial-an-event-rule-from-scratch--the-toll-road"
    );
    assert_eq!(slug("A pack's own state"), "a-packs-own-state");
    assert_eq!(
        anchors("# Twice\n## Twice\n```\n# not a heading\n```\n"),
        ["twice", "twice-1"]
    );
}
