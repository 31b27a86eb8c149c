//! The files a command reads and writes, checked before any work: an output
//! that is one of the command's inputs, or that two of its outputs share,
//! would lose a file, so it is refused (bad input, naming both flags).
//! Paths are compared as the files they name: `./x`, `x` and a link to `x`
//! are one file, and so is an output that does not exist yet whose folder
//! and name are another's.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::kernel::diag::bad_input;

/// A path given on the command line, with the flag (or argument) that gave
/// it, as the error names it.
#[derive(Clone, Debug)]
pub struct Named {
    pub flag: &'static str,
    pub path: PathBuf,
}

/// A command's input and output files.
#[derive(Clone, Debug, Default)]
pub struct Files {
    pub inputs: Vec<Named>,
    pub outputs: Vec<Named>,
}

/// The most files of one pack folder that are looked at.
const PACK_FILES: usize = 256;

impl Files {
    /// Read from `path`, given by `flag`.
    pub fn input(mut self, flag: &'static str, path: Option<&Path>) -> Files {
        self.inputs.extend(path.map(|path| Named {
            flag,
            path: path.to_path_buf(),
        }));
        self
    }

    /// Read from `text` when it names a file (a variant or tile file given
    /// by path; a name from the home folder is no file here).
    pub fn input_if_file(self, flag: &'static str, text: Option<&str>) -> Files {
        let path = text.map(Path::new).filter(|p| p.is_file());
        self.input(flag, path)
    }

    /// Read the files of each of `packs` that is a folder given by path
    /// (its manifest, script and tiles, wherever they are inside it).
    pub fn input_packs<'p>(
        mut self,
        flag: &'static str,
        packs: impl IntoIterator<Item = &'p str>,
    ) -> Files {
        for pack in packs.into_iter().map(Path::new).filter(|p| p.is_dir()) {
            let mut folders = vec![pack.to_path_buf()];
            let mut seen = 0;
            while let Some(folder) = folders.pop() {
                for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
                    seen += 1;
                    if seen > PACK_FILES {
                        break;
                    }
                    match entry.file_type() {
                        Ok(t) if t.is_dir() => folders.push(entry.path()),
                        Ok(_) => self.inputs.push(Named {
                            flag,
                            path: entry.path(),
                        }),
                        Err(_) => {}
                    }
                }
            }
        }
        self
    }

    /// Write to `path`, given by `flag`.
    pub fn output(mut self, flag: &'static str, path: Option<&Path>) -> Files {
        self.outputs.extend(path.map(|path| Named {
            flag,
            path: path.to_path_buf(),
        }));
        self
    }

    /// Refuse an output that is an input, that another output names too,
    /// or whose folder does not exist (found before the work, not after).
    pub fn check(&self) -> Result<()> {
        for (i, out) in self.outputs.iter().enumerate() {
            let folder = out.path.parent().filter(|f| !f.as_os_str().is_empty());
            if let Some(folder) = folder
                && !folder.is_dir()
            {
                return Err(bad_input(format!(
                    "{}: there is no folder `{}` to write it in",
                    out.shown(),
                    folder.display()
                )));
            }
            let Some(id) = Identity::of(&out.path) else {
                continue;
            };
            if let Some(input) = same_file(&self.inputs, &id) {
                return Err(bad_input(format!(
                    "{} would overwrite the input {}: give the output another path",
                    out.shown(),
                    input.shown()
                )));
            }
            if let Some(other) = same_file(&self.outputs[i + 1..], &id) {
                return Err(bad_input(format!(
                    "{} and {} are the same file: one output would replace the other; give each its own path",
                    out.shown(),
                    other.shown()
                )));
            }
        }
        Ok(())
    }

    /// Refuse an output inside the home folder's `rules/`, `variants/` or
    /// `tuned/` (`home`: the home folder, if any): the packs, variants and
    /// tuned values the commands read, by name as well as by path, so an
    /// output there could replace a file some run reads.
    pub fn outside_library(&self, home: Option<&Path>) -> Result<()> {
        let Some(home) = home else { return Ok(()) };
        let library: Vec<(&str, PathBuf)> = LIBRARY
            .iter()
            .filter_map(|&name| Some((name, std::fs::canonicalize(home.join(name)).ok()?)))
            .collect();
        for out in &self.outputs {
            let at = std::fs::canonicalize(&out.path).unwrap_or_else(|_| planned(&out.path));
            if let Some((name, _)) = library.iter().find(|(_, dir)| at.starts_with(dir)) {
                return Err(bad_input(format!(
                    "{} is inside the home folder's {name}/ ({}), whose files towerlab reads: write outputs elsewhere",
                    out.shown(),
                    home.join(name).display()
                )));
            }
        }
        Ok(())
    }
}

/// The folders of a home whose files the commands read.
const LIBRARY: [&str; 3] = ["rules", "variants", "tuned"];

impl Named {
    /// The flag and the path, as an error shows them.
    fn shown(&self) -> String {
        format!("{} {}", self.flag, self.path.display())
    }
}

/// The first of `named` that is the file `id`.
fn same_file<'n>(named: &'n [Named], id: &Identity) -> Option<&'n Named> {
    named
        .iter()
        .find(|n| Identity::of(&n.path).as_ref() == Some(id))
}

/// What a path names, for comparing: the file itself when it exists (so
/// links and hard links are the file they point at), else the canonical
/// folder it would be made in and its name. `None` for what is not a
/// regular file (`/dev/null`, a pipe): writing there loses no file.
#[derive(Debug)]
enum Identity {
    File(same_file::Handle),
    New(PathBuf),
}

impl PartialEq for Identity {
    fn eq(&self, other: &Identity) -> bool {
        match (self, other) {
            (Identity::File(a), Identity::File(b)) => a == b,
            (Identity::New(a), Identity::New(b)) => a == b,
            _ => false,
        }
    }
}

impl Identity {
    fn of(path: &Path) -> Option<Identity> {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_file() => {
                same_file::Handle::from_path(path).ok().map(Identity::File)
            }
            Ok(_) => None,
            Err(_) => Some(Identity::New(planned(path))),
        }
    }
}

/// The path a file not yet made would have: its folder canonical (when it
/// exists), then its name.
fn planned(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (absolute.parent(), absolute.file_name()) {
        (Some(folder), Some(name)) => std::fs::canonicalize(folder)
            .unwrap_or_else(|_| folder.to_path_buf())
            .join(name),
        _ => absolute,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_file_under_two_spellings_is_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let x = dir.path().join("x");
        std::fs::write(&x, "keep").unwrap();
        let dotted = dir.path().join(".").join("x");
        let files = Files::default()
            .input("--log", Some(&x))
            .output("--output", Some(&dotted));
        let e = files.check().unwrap_err().to_string();
        assert!(e.contains("--output") && e.contains("--log"), "{e}");
    }

    #[test]
    fn two_new_outputs_with_one_path_are_refused_and_distinct_ones_pass() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.html");
        let a_again = dir.path().join("sub").join("..").join("a.html");
        let b = dir.path().join("b.csv");
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let same = Files::default()
            .output("--html", Some(&a))
            .output("--per-game", Some(&a_again));
        assert!(same.check().is_err());
        let apart = Files::default()
            .output("--html", Some(&a))
            .output("--per-game", Some(&b));
        assert!(apart.check().is_ok());
    }

    #[test]
    fn a_device_may_take_every_output() {
        let null = Path::new("/dev/null");
        if null.exists() {
            let files = Files::default()
                .output("--log", Some(null))
                .output("--per-game", Some(null));
            assert!(files.check().is_ok());
        }
    }
}
