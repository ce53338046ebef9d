//! Save files on disk: one way to write them for every writer (`warboard
//! play`, the engine protocol, later the server) and one way to read them,
//! with one size limit (issue 16).
//!
//! A save is written whole or not at all: into a new temporary file of its
//! own in the target's folder (a unique name, so that two writers never
//! share one), flushed and synced, then renamed over the target. Until the
//! rename the old save is untouched, whatever fails (a full disk, a crash);
//! a failed write removes its temporary file. A target that exists and is
//! not a regular file (a device, a folder) is refused.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest save file any loader reads (engine, `replay`, `play
/// --load`): larger files are refused before they are read.
pub const MAX_SAVE_BYTES: u64 = 256 << 20;

/// Why a save could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum DiskError {
    #[error("{path}: not a regular file: a save goes to a file of its own")]
    NotAFile { path: String },
    #[error("{path}: cannot write: {source}; the previous save, if any, is unchanged")]
    Write { path: String, source: io::Error },
    #[error("{path}: cannot read: {source}")]
    Read { path: String, source: io::Error },
    #[error("{path}: {size} bytes is larger than a save file can be ({MAX_SAVE_BYTES})")]
    TooLarge { path: String, size: u64 },
    #[error("{path}: not UTF-8 text")]
    NotText { path: String },
}

/// Writes `bytes` to `path` atomically (see the module's text).
pub fn write_save(path: &Path, bytes: &[u8]) -> Result<(), DiskError> {
    write_save_with(path, bytes, |file, bytes| file.write_all(bytes))
}

/// [`write_save`] with the writing of the bytes given, so that tests can make
/// it fail midway (a full disk).
pub fn write_save_with(path: &Path, bytes: &[u8], write: impl FnOnce(&mut File, &[u8]) -> io::Result<()>) -> Result<(), DiskError> {
    let shown = || path.display().to_string();
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            return Err(DiskError::NotAFile { path: shown() });
        }
    }
    let fail = |source| DiskError::Write { path: shown(), source };
    let (tmp, mut file) = temporary_beside(path).map_err(fail)?;
    let written = write(&mut file, bytes).and_then(|_| file.flush()).and_then(|_| file.sync_all());
    drop(file);
    let renamed = written.and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = renamed {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    // The rename itself is made durable by syncing the folder, where the
    // platform allows it; a failure here loses nothing already written.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// A new file beside `path` that no other writer has: the target's name,
/// this process and a counter, created only if it does not exist yet.
fn temporary_beside(path: &Path) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "a save needs a file name"))?;
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.{n}.tmp", std::process::id()));
        let tmp = path.with_file_name(tmp_name);
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Reads a save file of at most [`MAX_SAVE_BYTES`], refusing a larger one
/// before reading it (and never reading past the limit if it grows).
pub fn read_save(path: &Path) -> Result<String, DiskError> {
    let shown = || path.display().to_string();
    let file = File::open(path).map_err(|source| DiskError::Read { path: shown(), source })?;
    let size = file.metadata().map_err(|source| DiskError::Read { path: shown(), source })?.len();
    if size > MAX_SAVE_BYTES {
        return Err(DiskError::TooLarge { path: shown(), size });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_SAVE_BYTES + 1).read_to_end(&mut bytes).map_err(|source| DiskError::Read { path: shown(), source })?;
    if bytes.len() as u64 > MAX_SAVE_BYTES {
        return Err(DiskError::TooLarge { path: shown(), size: bytes.len() as u64 });
    }
    String::from_utf8(bytes).map_err(|_| DiskError::NotText { path: shown() })
}

/// `text` cut to at most `max` bytes (at a character boundary), with a note
/// of what was left out: error messages quote at most a short prefix of bad
/// input, however large it was (issue 16, finding 7).
pub fn bounded_text(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} more bytes)", &text[..end], text.len() - end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("warboard-disk-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn leftovers(d: &Path) -> Vec<String> {
        std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).filter(|n| n.ends_with(".tmp")).collect()
    }

    #[test]
    fn a_failed_write_keeps_the_old_save_and_leaves_no_temporary_file() {
        let d = dir("fail");
        let path = d.join("game.json");
        write_save(&path, b"old save").unwrap();
        // Half the bytes, then the disk is full.
        let err = write_save_with(&path, b"new save, longer", |f, b| {
            f.write_all(&b[..4])?;
            Err(io::Error::other("no space left on device"))
        })
        .unwrap_err();
        assert!(err.to_string().contains("no space left") && err.to_string().contains("unchanged"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"old save");
        assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn two_writers_never_leave_a_partial_save() {
        let d = dir("race");
        let path = d.join("game.json");
        write_save(&path, &vec![b'a'; 100_000]).unwrap();
        let writers: Vec<_> = (0..2u8)
            .map(|w| {
                let path = path.clone();
                std::thread::spawn(move || {
                    for _ in 0..200 {
                        write_save(&path, &vec![b'b' + w; 100_000]).unwrap();
                    }
                })
            })
            .collect();
        for _ in 0..200 {
            let text = read_save(&path).unwrap();
            assert_eq!(text.len(), 100_000, "a reader saw a partial save");
            assert!(text.bytes().all(|c| c == text.as_bytes()[0]), "a reader saw two saves mixed");
        }
        for w in writers {
            w.join().unwrap();
        }
        assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_target_that_is_not_a_regular_file_is_refused() {
        let d = dir("notfile");
        let err = write_save(&d, b"x").unwrap_err();
        assert!(matches!(err, DiskError::NotAFile { .. }), "{err}");
        if Path::new("/dev/null").exists() {
            assert!(matches!(write_save(Path::new("/dev/null"), b"x").unwrap_err(), DiskError::NotAFile { .. }));
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn long_texts_are_cut_at_a_character() {
        assert_eq!(bounded_text("short", 10), "short");
        let cut = bounded_text(&"é".repeat(1000), 5);
        assert!(cut.starts_with("éé…") && cut.ends_with("(1996 more bytes)"), "{cut}");
    }

    #[test]
    fn oversized_files_are_refused_before_reading() {
        let d = dir("big");
        let path = d.join("big.json");
        let f = File::create(&path).unwrap();
        f.set_len(MAX_SAVE_BYTES + 1).unwrap();
        assert!(matches!(read_save(&path).unwrap_err(), DiskError::TooLarge { .. }));
        let _ = std::fs::remove_dir_all(&d);
    }
}
