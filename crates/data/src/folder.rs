//! The folder a fetched file goes into, opened once: every folder below the data directory is
//! opened without following a symbolic link (on Unix, relative to its parent's open handle), so
//! a link planted on the way, before or while fetching, cannot send a write elsewhere; temporary
//! files are created exclusively in it (never through an existing name or link) and renamed
//! within it.

use crate::{DataError, io_error};
use std::fs::File;
use std::path::{Path, PathBuf};

/// An open folder of the data directory.
pub(crate) struct Folder {
    /// Its path, for messages.
    path: PathBuf,
    #[cfg(unix)]
    handle: std::os::fd::OwnedFd,
}

/// The message for a folder on the way that is a link or not a folder.
fn not_a_folder(listed: &str, path: &Path) -> DataError {
    DataError::Sources(format!(
        "path '{listed}' leads out of the data directory through a symbolic link, or through something that is \
         not a folder ({}); expected plain folders below the data directory",
        path.display()
    ))
}

impl Folder {
    /// Opens the folder of `listed` (a path already checked to be plain names) below `root`,
    /// creating the folders that are missing.
    #[cfg(unix)]
    pub(crate) fn open(root: &Path, listed: &str) -> Result<Folder, DataError> {
        use rustix::fs::{Mode, OFlags, mkdirat, open, openat};
        use rustix::io::Errno;
        std::fs::create_dir_all(root).map_err(|error| io_error(root, error))?;
        let flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC;
        let mut handle = open(root, flags, Mode::empty()).map_err(|error| io_error(root, error.into()))?;
        let mut path = root.to_path_buf();
        let parent = Path::new(listed).parent().unwrap_or(Path::new(""));
        for name in parent.components().map(|component| component.as_os_str()) {
            path.push(name);
            match mkdirat(&handle, name, Mode::from_raw_mode(0o755)) {
                Ok(()) | Err(Errno::EXIST) => {}
                Err(error) => return Err(io_error(&path, error.into())),
            }
            handle = match openat(&handle, name, flags | OFlags::NOFOLLOW, Mode::empty()) {
                Ok(next) => next,
                Err(Errno::LOOP | Errno::NOTDIR) => return Err(not_a_folder(listed, &path)),
                Err(error) => return Err(io_error(&path, error.into())),
            };
        }
        Ok(Folder { path, handle })
    }

    /// Opens the folder of `listed` below `root`, creating the folders that are missing (without
    /// the Unix handle: the caller's check of where the folders resolve is all there is).
    #[cfg(not(unix))]
    pub(crate) fn open(root: &Path, listed: &str) -> Result<Folder, DataError> {
        let path = root.join(Path::new(listed).parent().unwrap_or(Path::new("")));
        std::fs::create_dir_all(&path).map_err(|error| io_error(&path, error))?;
        Ok(Folder { path })
    }

    /// Where `name` is in this folder, for messages.
    pub(crate) fn path_of(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Creates `name` for writing and reading; refused if anything (a file, a link) has that name.
    pub(crate) fn create_new(&self, name: &str) -> Result<File, DataError> {
        let refuse = |error: std::io::Error| {
            let path = self.path_of(name);
            if error.kind() == std::io::ErrorKind::AlreadyExists {
                DataError::Io {
                    path: path.display().to_string(),
                    message: "a file or link already has this temporary name (left by an interrupted fetch, or \
                              placed there); nothing was written: remove it and fetch again"
                        .into(),
                }
            } else {
                io_error(&path, error)
            }
        };
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags, openat};
            let flags = OFlags::RDWR | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let handle =
                openat(&self.handle, name, flags, Mode::from_raw_mode(0o644)).map_err(|error| refuse(error.into()))?;
            Ok(File::from(handle))
        }
        #[cfg(not(unix))]
        {
            std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(self.path_of(name)).map_err(refuse)
        }
    }

    /// Renames `from` to `to` within this folder (replacing `to`, even a link, not its target).
    pub(crate) fn rename(&self, from: &str, to: &str) -> Result<(), DataError> {
        #[cfg(unix)]
        {
            rustix::fs::renameat(&self.handle, from, &self.handle, to)
                .map_err(|error| io_error(&self.path_of(to), error.into()))
        }
        #[cfg(not(unix))]
        {
            std::fs::rename(self.path_of(from), self.path_of(to)).map_err(|error| io_error(&self.path_of(to), error))
        }
    }

    /// Removes `name` from this folder, if it is there (a temporary file being given up).
    pub(crate) fn remove(&self, name: &str) {
        #[cfg(unix)]
        let _ = rustix::fs::unlinkat(&self.handle, name, rustix::fs::AtFlags::empty());
        #[cfg(not(unix))]
        let _ = std::fs::remove_file(self.path_of(name));
    }
}
