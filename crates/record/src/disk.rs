//! Save files on disk: one way to write them for every writer (`warboard
//! play`, the engine protocol, later the server) and one way to read them,
//! with one size limit (issue 16).
//!
//! A save is written whole or not at all: into a new temporary file of its
//! own in the target's folder (a unique name, so that two writers never
//! share one), flushed and synced, then renamed over the target. Until the
//! rename the old save is untouched, whatever fails (a full disk, a crash);
//! a failed write removes its temporary file, and the temporary files of
//! saves that were killed midway are removed by the next save to the same
//! target. A target that exists and is not a regular file (a device, a
//! folder, a FIFO) is refused, for reading as for writing.
//!
//! The saved file keeps what identifies it to its owner (issue 34, finding
//! 14): an existing target's permissions pass to the new file, and a
//! symbolic link is written through (the file it points to is replaced, the
//! link stays); a link to nothing is refused.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The largest save file any loader reads (engine, `replay`, `play
/// --load`): larger files are refused before they are read.
pub const MAX_SAVE_BYTES: u64 = 256 << 20;

/// The longest file name most file systems take (NAME_MAX on Linux and
/// macOS, in bytes): a temporary name never goes past it.
const MAX_NAME_BYTES: usize = 255;

/// A temporary file of a dead process not written for this long is a
/// killed save's; the wait keeps clear of a writer whose process this
/// machine cannot see (another machine on a shared folder, another
/// container), which is at worst refused its rename and keeps its old save.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// Why a save could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum DiskError {
    #[error("{path}: not a regular file (a folder, a device or a FIFO): a save is a file of its own")]
    NotAFile { path: String },
    #[error("{path}: a symbolic link to nothing: a save is written through a link only to an existing file")]
    BrokenLink { path: String },
    #[error("{path}: cannot write: {source}; the previous save, if any, is unchanged")]
    Write { path: String, source: io::Error },
    #[error("{path}: cannot read: {source}")]
    Read { path: String, source: io::Error },
    #[error("{path}: {size} bytes is larger than a save file can be ({MAX_SAVE_BYTES})")]
    TooLarge { path: String, size: u64 },
    #[error("{path}: the save would be {size} bytes, more than any loader reads ({MAX_SAVE_BYTES}); nothing was written, the previous save, if any, is unchanged")]
    TooLargeToSave { path: String, size: u64 },
    #[error("{path}: not UTF-8 text")]
    NotText { path: String },
}

impl DiskError {
    /// A stable code, as a loader reports it beside a [`crate::LoadError`]'s
    /// (the engine protocol's `read_save` gives the same ones).
    pub fn code(&self) -> &'static str {
        match self {
            DiskError::NotText { .. } => "save/not-json",
            DiskError::Write { .. } | DiskError::TooLargeToSave { .. } => "save/io",
            DiskError::NotAFile { .. } | DiskError::BrokenLink { .. } | DiskError::Read { .. } | DiskError::TooLarge { .. } => "save/unreadable",
        }
    }
}

/// Writes `bytes` to `path` atomically (see the module's text).
pub fn write_save(path: &Path, bytes: &[u8]) -> Result<(), DiskError> {
    write_save_with(path, bytes, |file, bytes| file.write_all(bytes))
}

/// [`write_save`] with the writing of the bytes given, so that tests can make
/// it fail midway (a full disk).
pub fn write_save_with(path: &Path, bytes: &[u8], write: impl FnOnce(&mut File, &[u8]) -> io::Result<()>) -> Result<(), DiskError> {
    let shown = || path.display().to_string();
    // A save no loader would read is not written (issue 34, finding 6).
    if bytes.len() as u64 > MAX_SAVE_BYTES {
        return Err(DiskError::TooLargeToSave { path: shown(), size: bytes.len() as u64 });
    }
    let fail = |source| DiskError::Write { path: shown(), source };
    // Through a symbolic link to the file it names: the rename replaces
    // that file, in its own folder, and the link keeps pointing at it.
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path).map_err(|_| DiskError::BrokenLink { path: shown() })?,
        _ => path.to_path_buf(),
    };
    let existing = match std::fs::metadata(&target) {
        Ok(meta) if !meta.is_file() => return Err(DiskError::NotAFile { path: shown() }),
        Ok(meta) => Some(meta.permissions()),
        Err(_) => None,
    };
    remove_stale_temporaries(&target);
    let (tmp, mut file) = temporary_beside(&target, existing.as_ref()).map_err(fail)?;
    // The old file's permissions before a byte is written, so that a
    // private save is never readable by others, not even for a moment.
    let kept = match &existing {
        Some(perms) => file.set_permissions(perms.clone()),
        None => Ok(()),
    };
    let written = kept.and_then(|_| write(&mut file, bytes)).and_then(|_| file.flush()).and_then(|_| file.sync_all());
    drop(file);
    let renamed = written.and_then(|_| std::fs::rename(&tmp, &target));
    if let Err(e) = renamed {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    // The rename itself is made durable by syncing the folder, where the
    // platform allows it; a failure here loses nothing already written.
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// The start of the temporary names of saves to `path`: a dot, then the
/// target's name and a dot, the name cut so that the whole temporary name
/// stays within [`MAX_NAME_BYTES`] (issue 34, finding 13: a 250-byte name
/// could not be saved to).
fn temporary_prefix(path: &Path) -> io::Result<String> {
    // `<pid>.<n>.tmp`: a u32, a u64 and the dots.
    const SUFFIX_BYTES: usize = 10 + 1 + 20 + 4;
    let name = path.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "a save needs a file name"))?;
    let name = name.to_string_lossy();
    let mut end = name.len().min(MAX_NAME_BYTES - 2 - SUFFIX_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    Ok(format!(".{}.", &name[..end]))
}

/// A new file beside `path` that no other writer has: the target's name,
/// this process and a counter, created only if it does not exist yet, with
/// the target's permissions where it has some.
fn temporary_beside(path: &Path, perms: Option<&std::fs::Permissions>) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let prefix = temporary_prefix(path)?;
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = path.with_file_name(format!("{prefix}{}.{n}.tmp", std::process::id()));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        if let Some(perms) = perms {
            use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
            options.mode(perms.mode() & 0o7777);
        }
        #[cfg(not(unix))]
        let _ = perms;
        match options.open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Removes the temporary files that saves to `path` left when their process
/// was killed midway (issue 34, finding 15): those named for this target,
/// of a process that no longer runs, not written for [`STALE_AFTER`]. Where
/// this platform cannot tell whether a process runs, nothing is removed.
/// Failures are ignored: the save goes on either way.
fn remove_stale_temporaries(path: &Path) {
    let (Ok(prefix), Some(dir)) = (temporary_prefix(path), path.parent()) else { return };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| temporary_pid(n, &prefix)) else { continue };
        if pid == std::process::id() || process_runs(pid).unwrap_or(true) {
            continue;
        }
        let idle = entry.metadata().ok().and_then(|m| m.modified().ok()).and_then(|t| t.elapsed().ok());
        if idle.is_some_and(|idle| idle >= STALE_AFTER) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The process id in a temporary name `<prefix><pid>.<n>.tmp`.
fn temporary_pid(name: &str, prefix: &str) -> Option<u32> {
    let (pid, n) = name.strip_prefix(prefix)?.strip_suffix(".tmp")?.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(pid) || !digits(n) {
        return None;
    }
    pid.parse().ok()
}

/// Whether process `pid` runs on this machine, where it can be told
/// without more than the standard library: `/proc` on Linux.
fn process_runs(pid: u32) -> Option<bool> {
    if cfg!(target_os = "linux") && Path::new("/proc/self").exists() {
        Some(Path::new(&format!("/proc/{pid}")).exists())
    } else {
        None
    }
}

/// Reads a save file of at most [`MAX_SAVE_BYTES`], refusing a larger one
/// before reading it (and never reading past the limit if it grows). What
/// is not a regular file is refused before it is opened (issue 34, finding
/// 12: opening a FIFO waits for a writer, forever).
pub fn read_save(path: &Path) -> Result<String, DiskError> {
    let shown = || path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|source| DiskError::Read { path: shown(), source })?;
    if !meta.is_file() {
        return Err(DiskError::NotAFile { path: shown() });
    }
    let file = File::open(path).map_err(|source| DiskError::Read { path: shown(), source })?;
    // Checked again on what was opened, in case the path changed between.
    let meta = file.metadata().map_err(|source| DiskError::Read { path: shown(), source })?;
    if !meta.is_file() {
        return Err(DiskError::NotAFile { path: shown() });
    }
    let size = meta.len();
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

    /// Issue 34, finding 12: a FIFO is refused at once, not opened (which
    /// waits for a writer forever).
    #[cfg(unix)]
    #[test]
    fn reading_a_fifo_is_refused_without_waiting() {
        let d = dir("fifo");
        let fifo = d.join("save.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("no mkfifo here: skipped");
            return;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || tx.send(read_save(&path).map(|_| ()).map_err(|e| e.to_string())));
        let answer = rx.recv_timeout(Duration::from_secs(10)).expect("reading a FIFO returns at once");
        let err = answer.expect_err("a FIFO is not a save");
        assert!(err.contains("not a regular file"), "{err}");
        assert!(matches!(write_save(&fifo, b"x").unwrap_err(), DiskError::NotAFile { .. }));
        let _ = std::fs::remove_dir_all(&d);
    }

    /// Issue 34, finding 13: the temporary name of a save to a name of 255
    /// bytes stays within 255 bytes.
    #[test]
    fn the_longest_file_names_can_be_saved_to() {
        let d = dir("longname");
        for len in [240, 250, 255] {
            let path = d.join(format!("{}.json", "s".repeat(len - 5)));
            write_save(&path, b"a save").unwrap_or_else(|e| panic!("{len} bytes: {e}"));
            write_save(&path, b"saved again").unwrap_or_else(|e| panic!("{len} bytes, again: {e}"));
            assert_eq!(read_save(&path).unwrap(), "saved again");
        }
        let long = "é".repeat(127) + "x";
        assert_eq!(long.len(), 255);
        write_save(&d.join(&long), b"a save").expect("a name cut at a character");
        assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
        let _ = std::fs::remove_dir_all(&d);
    }

    /// Issue 34, finding 14: saving over a file keeps its permissions.
    #[cfg(unix)]
    #[test]
    fn saving_keeps_the_file_mode() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir("mode");
        let path = d.join("game.json");
        for mode in [0o600, 0o640, 0o444] {
            let _ = std::fs::remove_file(&path);
            write_save(&path, b"first").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            write_save(&path, b"second").unwrap();
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, mode, "{mode:o}");
            assert_eq!(read_save(&path).unwrap(), "second");
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    /// Issue 34, finding 14: a symbolic link is written through: the file
    /// it names gets the save, the link stays a link. A link to nothing is
    /// refused and nothing is created.
    #[cfg(unix)]
    #[test]
    fn saving_writes_through_a_symbolic_link() {
        let d = dir("link");
        std::fs::create_dir_all(d.join("real")).unwrap();
        let real = d.join("real/game.json");
        write_save(&real, b"old").unwrap();
        let link = d.join("game.json");
        std::os::unix::fs::symlink("real/game.json", &link).unwrap();
        write_save(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is kept");
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        assert!(leftovers(&d).is_empty() && leftovers(&d.join("real")).is_empty());
        let dangling = d.join("nothing.json");
        std::os::unix::fs::symlink("real/missing.json", &dangling).unwrap();
        assert!(matches!(write_save(&dangling, b"x").unwrap_err(), DiskError::BrokenLink { .. }));
        assert!(!d.join("real/missing.json").exists());
        let _ = std::fs::remove_dir_all(&d);
    }

    /// Issue 34, finding 15: the temporary files of killed saves to the same
    /// target are removed by the next save; those of running processes, of
    /// other targets and of a save too recent to tell are kept.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_next_save_removes_temporary_files_of_killed_saves() {
        let d = dir("stale");
        let path = d.join("game.json");
        // A process that has ended: its id is free.
        let mut child = std::process::Command::new("true").spawn().expect("run true");
        let dead = child.id();
        child.wait().unwrap();
        let running = std::os::unix::process::parent_id();
        let old = std::time::SystemTime::now() - Duration::from_secs(3600);
        let leftover = |name: String, modified: Option<std::time::SystemTime>| {
            let f = File::create(d.join(&name)).unwrap();
            if let Some(t) = modified {
                f.set_modified(t).unwrap();
            }
            name
        };
        let killed = leftover(format!(".game.json.{dead}.0.tmp"), Some(old));
        let killed_too = leftover(format!(".game.json.{dead}.7.tmp"), Some(old));
        let live = leftover(format!(".game.json.{running}.0.tmp"), Some(old));
        let recent = leftover(format!(".game.json.{dead}.9.tmp"), None);
        let other_target = leftover(format!(".other.json.{dead}.0.tmp"), Some(old));
        write_save(&path, b"a save").unwrap();
        let mut left = leftovers(&d);
        left.sort();
        let mut expected = vec![live, recent, other_target];
        expected.sort();
        assert_eq!(left, expected, "removed: {killed}, {killed_too}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn temporary_names_are_told_by_their_shape() {
        assert_eq!(temporary_pid(".game.json.123.4.tmp", ".game.json."), Some(123));
        assert_eq!(temporary_pid(".game.json.123.tmp", ".game.json."), None);
        assert_eq!(temporary_pid(".game.json.x.4.tmp", ".game.json."), None);
        assert_eq!(temporary_pid(".game.json.bak.123.4.tmp", ".game.json."), None);
    }

    #[test]
    fn long_texts_are_cut_at_a_character() {
        assert_eq!(bounded_text("short", 10), "short");
        let cut = bounded_text(&"é".repeat(1000), 5);
        assert!(cut.starts_with("éé…") && cut.ends_with("(1996 more bytes)"), "{cut}");
    }

    /// Issue 34, finding 6: a save larger than any loader reads is not
    /// written, and the previous one stays.
    #[test]
    fn a_save_too_large_to_load_is_not_written() {
        let d = dir("toolarge");
        let path = d.join("game.json");
        write_save(&path, b"old save").unwrap();
        // Zeroed by the allocator, never touched: no memory is used for it.
        let huge = vec![0u8; MAX_SAVE_BYTES as usize + 1];
        let err = write_save(&path, &huge).unwrap_err();
        assert!(matches!(err, DiskError::TooLargeToSave { .. }), "{err}");
        assert!(err.to_string().contains("more than any loader reads") && err.to_string().contains("unchanged"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"old save");
        assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
        let _ = std::fs::remove_dir_all(&d);
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
