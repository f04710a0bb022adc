//! Where lockfiles live on each OS, and how a project path becomes a file name.

use std::{
    ffi::OsString,
    io,
    path::{Path, PathBuf},
};

use sha2::{Digest, Sha256};

/// The name of the lockfile directory (a per-user suffix is added where the
/// temporary directory is shared between users).
const DIR_NAME: &str = "reactor-devtools";

/// The lockfile directory for this user, read from the real environment: where
/// sessions write their lockfiles.
pub fn lockfile_dir() -> PathBuf {
    lockfile_dir_from(|name| std::env::var_os(name), crate::trust::current_uid())
}

/// The lockfile directories a reader searches, read from the real environment: the one
/// sessions write to ([`lockfile_dir`]) first, then any other where a session of this
/// user may have announced itself ([`lockfile_dirs_from`]).
pub fn lockfile_dirs() -> Searched {
    lockfile_dirs_from(|name| std::env::var_os(name), crate::trust::current_uid())
}

/// Where a login's runtime directories are: systemd-logind makes `/run/user/<uid>`
/// (0700, the user's) for every login and sets `XDG_RUNTIME_DIR` to it.
const LOGIN_RUNTIME_BASE: &str = "/run/user";

/// The variable that moves [`LOGIN_RUNTIME_BASE`] (an absolute path): how the tests
/// give a process a login's runtime directory of its own without touching `/run`.
const LOGIN_RUNTIME_BASE_VAR: &str = "MUR_LOGIN_RUNTIME_BASE";

/// The lockfile directory given an environment lookup and a user id.
///
/// - Windows: `%TEMP%\reactor-devtools`.
/// - macOS: `$TMPDIR/reactor-devtools` (`$TMPDIR` is already per user there).
/// - Linux and other Unix: `$XDG_RUNTIME_DIR/reactor-devtools` when set (a
///   per-user 0700 directory by definition); unset, the login's runtime directory
///   `/run/user/<uid>` when there is one of the user's own, 0700; else
///   `${TMPDIR:-/tmp}/reactor-devtools-<uid>`, because `/tmp` is shared.
///
/// A variable that is empty or names a relative path counts as unset.
pub fn lockfile_dir_from(env: impl Fn(&str) -> Option<OsString>, uid: u32) -> PathBuf {
    layout(env, uid).write
}

/// The lockfile directories a reader searches, given an environment lookup and a user
/// id: [`lockfile_dir_from`]'s first; then, when that is not it,
/// `${TMPDIR:-/tmp}/reactor-devtools-<uid>` too if it is there and trusted (a directory
/// of the user's own that no one else can write to, [`check_own`](crate::check_own)).
/// Whatever a reader's environment, a writer of this user may have announced itself
/// there: one started without `XDG_RUNTIME_DIR` (a service, `sudo -u`, an IDE launched
/// from a desktop file, `docker exec`) that finds no login's runtime directory, or looks
/// for none (a mur-server from before it did, an app on another library of the contract).
/// One there but not trusted is not searched, and [`Searched::refused`] says why.
fn lockfile_dirs_from(env: impl Fn(&str) -> Option<OsString>, uid: u32) -> Searched {
    let Layout { write, also } = layout(env, uid);
    let mut searched = Searched {
        dirs: vec![write],
        refused: Vec::new(),
    };
    if let Some(dir) = also.filter(|dir| *dir != searched.dirs[0]) {
        match judged(&dir) {
            Some(Ok(())) => searched.dirs.push(dir),
            Some(Err(why)) => searched.refused.push(why),
            None => {}
        }
    }
    searched
}

/// The lockfile directories a reader searches ([`lockfile_dirs_from`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Searched {
    /// Where lockfiles are written first, then the others there and trusted.
    pub dirs: Vec<PathBuf>,
    /// One line each: a directory where sessions may announce themselves that is not
    /// searched, as another user could have made it or can write to it, and why.
    pub refused: Vec<String>,
}

/// Whether `dir`, where a writer of the contract may have announced a session, may be
/// searched: `None` when nothing is there; else `Err` (one line, why) for one that is no
/// directory, or that another user made (a squat in a shared `/tmp`) or can write to.
fn judged(dir: &Path) -> Option<Result<(), String>> {
    let meta = std::fs::symlink_metadata(dir).ok()?;
    let trusted = crate::trust::check_metadata(&meta, dir, "lockfile directory");
    if trusted.is_ok() && !meta.is_dir() {
        return Some(Err(format!(
            "refusing lockfile directory `{}`: it is not a directory",
            dir.display()
        )));
    }
    Some(trusted)
}

/// Where lockfiles are written, and where else a reader may find them.
struct Layout {
    write: PathBuf,
    /// The directory the contract names when `XDG_RUNTIME_DIR` is unset: searched
    /// beside the one written to when that is another (the variable's, the login's).
    also: Option<PathBuf>,
}

/// The layout given an environment lookup: a variable that is empty or names a
/// relative path counts as unset, as the XDG spec asks of `XDG_RUNTIME_DIR` (and
/// as [`state_dir`] treats `XDG_STATE_HOME`); taken against each process's own
/// working directory, it would name another directory in each.
fn layout(env: impl Fn(&str) -> Option<OsString>, uid: u32) -> Layout {
    let absolute = |name: &str| {
        env(name)
            .map(PathBuf::from)
            .filter(|path| path.is_absolute())
    };
    let login_base =
        absolute(LOGIN_RUNTIME_BASE_VAR).unwrap_or_else(|| PathBuf::from(LOGIN_RUNTIME_BASE));
    layout_with(absolute, uid, &login_base)
}

fn layout_with(absolute: impl Fn(&str) -> Option<PathBuf>, uid: u32, login_base: &Path) -> Layout {
    let only = |write| Layout { write, also: None };
    if cfg!(windows) {
        let temp = absolute("TEMP")
            .or_else(|| absolute("TMP"))
            .unwrap_or_else(std::env::temp_dir);
        return only(temp.join(DIR_NAME));
    }
    if cfg!(target_os = "macos") {
        let temp = absolute("TMPDIR").unwrap_or_else(|| PathBuf::from("/tmp"));
        return only(temp.join(DIR_NAME));
    }
    let temp = absolute("TMPDIR").unwrap_or_else(|| PathBuf::from("/tmp"));
    let shared = temp.join(format!("{DIR_NAME}-{uid}"));
    let write = match absolute("XDG_RUNTIME_DIR") {
        Some(runtime) => runtime,
        None => match login_runtime_dir(login_base, uid) {
            Some(login) => login,
            None => return only(shared),
        },
    };
    Layout {
        write: write.join(DIR_NAME),
        also: Some(shared),
    }
}

/// The login's runtime directory `<base>/<uid>`, as `XDG_RUNTIME_DIR` would name it, for a
/// process started without that variable: an MCP SDK starts a stdio server (`mur devtools
/// proxy`) with HOME, LOGNAME, PATH, SHELL, TERM and USER alone, and a reader that fell
/// back to `/tmp` found none of the sessions started from the user's shell. Only a
/// directory of the user's own that no one else can enter.
#[cfg(unix)]
fn login_runtime_dir(base: &Path, uid: u32) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt as _;
    let dir = base.join(uid.to_string());
    let meta = std::fs::symlink_metadata(&dir).ok()?;
    let private = crate::trust::check_own(&meta, crate::trust::Keep::Secret).is_ok();
    (meta.is_dir() && meta.uid() == uid && private).then_some(dir)
}

#[cfg(not(unix))]
fn login_runtime_dir(_base: &Path, _uid: u32) -> Option<PathBuf> {
    None
}

/// mur's per-user state directory, `<state>/mur` (OAuth grants, usage records):
/// `$XDG_STATE_HOME` when it is an absolute path, else `~/.local/state` (Linux, other
/// Unix), `~/Library/Application Support` (macOS), `%LOCALAPPDATA%` (Windows); `None`
/// without a home. Creates nothing.
pub fn state_dir() -> Option<PathBuf> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let base = absolute("XDG_STATE_HOME").or_else(|| {
        if cfg!(windows) {
            std::env::var_os("LOCALAPPDATA").map(PathBuf::from)
        } else if cfg!(target_os = "macos") {
            absolute("HOME").map(|h| h.join("Library").join("Application Support"))
        } else {
            absolute("HOME").map(|h| h.join(".local").join("state"))
        }
    })?;
    Some(base.join("mur"))
}

/// The canonical full path of a project file, as hashed into its lockfile name.
///
/// The path is made absolute and resolved through symlinks when it exists. A
/// project that does not exist (yet: a bridge's project file usually never does)
/// has its deepest existing directory resolved and the rest cleaned of `.` and `..`,
/// so `../ev/Ev.csproj` from a sibling directory names the same session as
/// `/…/ev/Ev.csproj`. On Windows the drive letter is lowercased and `/` becomes `\`, so
/// `C:\foo\bar.csproj` and `c:/foo/bar.csproj` address the same session.
pub fn canonical_project(path: &Path) -> io::Result<String> {
    let resolved = resolved(&std::path::absolute(path)?);
    let text = resolved.to_string_lossy().into_owned();
    if cfg!(windows) {
        Ok(windows_canonical(strip_verbatim_prefix(&text)))
    } else {
        Ok(text)
    }
}

/// The project a session started with `path` is for: a folder holding exactly one
/// project file (MSBuild's `*.*proj`: `App.csproj`, `Lib.fsproj`, `build.proj`) directly in it names
/// that file, as `dotnet run --project FOLDER` takes it and `mur devtools --project
/// FOLDER` finds its session; any other path names itself. Without it, an app started
/// with its folder announced a project of its own beside the file's, and ran as a second
/// session of the one project. A folder with none or several is left as it is typed.
pub fn project_file(path: &Path) -> PathBuf {
    let Ok(entries) = std::fs::read_dir(path) else {
        return path.to_path_buf();
    };
    let mut projects = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|file| is_project_file(file));
    match (projects.next(), projects.next()) {
        (Some(file), None) => file,
        _ => path.to_path_buf(),
    }
}

/// Whether `file` is a file named as MSBuild names a project (`*.*proj`).
fn is_project_file(file: &Path) -> bool {
    let named = file
        .extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| extension.to_ascii_lowercase().ends_with("proj"));
    named && file.is_file()
}

/// `absolute` resolved through symlinks as far as it exists, the rest cleaned
/// lexically: `std::path::absolute` keeps `..` on Unix (where `a/link/..` need not be
/// `a`), and `std::fs::canonicalize` fails for a path that does not exist. Below the
/// deepest directory that exists nothing can be a symlink, so a `..` there just drops
/// the word before it.
fn resolved(absolute: &Path) -> PathBuf {
    let Some((mut base, rest)) = absolute.ancestors().find_map(|dir| {
        Some((
            std::fs::canonicalize(dir).ok()?,
            absolute.strip_prefix(dir).ok()?,
        ))
    }) else {
        return absolute.to_path_buf();
    };
    for part in rest.components() {
        match part {
            std::path::Component::ParentDir => {
                base.pop();
            }
            std::path::Component::Normal(word) => base.push(word),
            _ => {}
        }
    }
    base
}

/// `std::fs::canonicalize` on Windows returns `\\?\C:\…`; the contract hashes `c:\…`.
fn strip_verbatim_prefix(text: &str) -> &str {
    text.strip_prefix(r"\\?\").unwrap_or(text)
}

/// The Windows canonicalization rule on its own: drive letter lowercased,
/// forward slashes turned into backslashes. Pure, so it is testable anywhere.
pub fn windows_canonical(path: &str) -> String {
    let mut out: String = path.replace('/', "\\");
    let bytes = out.as_bytes();
    if bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic() {
        let drive = (bytes[0] as char).to_ascii_lowercase();
        out.replace_range(0..1, drive.encode_utf8(&mut [0; 4]));
    }
    out
}

/// The lockfile name for a canonical project path: the first 16 hex
/// characters of its SHA-256, then `.json`.
pub fn lockfile_name(canonical_project: &str) -> String {
    let digest = Sha256::digest(canonical_project.as_bytes());
    let hex: String = digest
        .iter()
        .take(8)
        .map(|byte| format!("{byte:02x}"))
        .collect();
    format!("{hex}.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_paths_that_address_the_same_project_collide() {
        let a = windows_canonical(r"C:\foo\bar.csproj");
        let b = windows_canonical("c:/foo/bar.csproj");
        assert_eq!(a, r"c:\foo\bar.csproj");
        assert_eq!(a, b);
        assert_eq!(lockfile_name(&a), lockfile_name(&b));
    }

    #[test]
    fn windows_rule_leaves_other_characters_alone() {
        assert_eq!(
            windows_canonical(r"D:\Src\App\App.csproj"),
            r"d:\Src\App\App.csproj"
        );
        assert_eq!(
            windows_canonical(r"\\server\share\A.csproj"),
            r"\\server\share\A.csproj"
        );
    }

    #[test]
    fn lockfile_name_is_sixteen_hex_of_sha256() {
        // sha256("/home/me/app/App.csproj") begins with these 16 hex digits.
        let name = lockfile_name("/home/me/app/App.csproj");
        let expected = {
            let digest = Sha256::digest(b"/home/me/app/App.csproj");
            format!(
                "{:016x}.json",
                u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
            )
        };
        assert_eq!(name, expected);
        assert_eq!(name.len(), 16 + ".json".len());
        assert!(
            name[..16]
                .chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
    }

    #[test]
    fn known_vector_for_the_hash() {
        // Computed independently: printf %s 'c:\foo\bar.csproj' | sha256sum | cut -c1-16
        assert_eq!(
            lockfile_name(r"c:\foo\bar.csproj"),
            format!("{}.json", KNOWN_PREFIX)
        );
    }
    const KNOWN_PREFIX: &str = "bdbdbe95bff2190a";

    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn unix_directory_rules() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        assert_eq!(
            lockfile_dir_from(
                env(&[("XDG_RUNTIME_DIR", "/run/user/1000"), ("TMPDIR", "/x")]),
                1000
            ),
            PathBuf::from("/run/user/1000/reactor-devtools")
        );
        assert_eq!(
            lockfile_dir_from(env(&[("TMPDIR", "/var/tmp")]), 42),
            PathBuf::from("/var/tmp/reactor-devtools-42")
        );
        assert_eq!(
            lockfile_dir_from(env(&[("XDG_RUNTIME_DIR", "")]), 7),
            PathBuf::from("/tmp/reactor-devtools-7")
        );
        // Relative, each process would take it against its own working directory.
        assert_eq!(
            lockfile_dir_from(env(&[("XDG_RUNTIME_DIR", "run"), ("TMPDIR", "tmp")]), 7),
            PathBuf::from("/tmp/reactor-devtools-7"),
            "relative variables are unset"
        );
        assert_eq!(
            lockfile_dir_from(env(&[("XDG_RUNTIME_DIR", "./run"), ("TMPDIR", "/x")]), 7),
            PathBuf::from("/x/reactor-devtools-7")
        );
    }

    /// An environment of these variables, the login's runtime directories under `base`.
    #[cfg(all(unix, not(target_os = "macos")))]
    fn env_at(base: &Path, vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> + use<> {
        let base = base.as_os_str().to_owned();
        let vars: Vec<(String, OsString)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), OsString::from(v)))
            .collect();
        move |name| match name {
            LOGIN_RUNTIME_BASE_VAR => Some(base.clone()),
            _ => vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()),
        }
    }

    /// A temporary base for the login's runtime directories, the uid that owns what
    /// this process makes, and that uid's directory in the base (not made).
    #[cfg(all(unix, not(target_os = "macos")))]
    fn login_base() -> (tempfile::TempDir, u32, PathBuf) {
        use std::os::unix::fs::MetadataExt as _;
        let base = tempfile::tempdir().expect("tempdir");
        let uid = std::fs::metadata(base.path()).expect("meta").uid();
        let login = base.path().join(uid.to_string());
        (base, uid, login)
    }

    #[cfg(all(unix, not(target_os = "macos")))]
    fn chmod(path: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }

    /// Makes `path` (and its parents), the user's own and private: a directory a
    /// reader searches.
    #[cfg(all(unix, not(target_os = "macos")))]
    fn make_private(path: &Path) {
        std::fs::create_dir_all(path).expect("mkdir");
        chmod(path, 0o700);
    }

    /// Without `XDG_RUNTIME_DIR` (an MCP SDK's stdio server), the login's runtime
    /// directory, where sessions started from the user's shell announce themselves;
    /// never one that is not the user's own and private.
    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn without_xdg_runtime_dir_the_login_s_runtime_directory_is_used() {
        let (base, uid, login) = login_base();
        std::fs::create_dir(&login).expect("mkdir");
        let no_env = env_at(base.path(), &[]);
        chmod(&login, 0o700);
        assert_eq!(
            lockfile_dir_from(&no_env, uid),
            login.join("reactor-devtools")
        );
        chmod(&login, 0o755);
        assert_eq!(
            lockfile_dir_from(&no_env, uid),
            PathBuf::from(format!("/tmp/reactor-devtools-{uid}"))
        );
        chmod(&login, 0o700);
        // A directory named for another uid that this one owns: not that uid's.
        let other = base.path().join((uid + 1).to_string());
        make_private(&other);
        assert_eq!(
            lockfile_dir_from(&no_env, uid + 1),
            PathBuf::from(format!("/tmp/reactor-devtools-{}", uid + 1)),
            "a directory another uid owns"
        );
        // A link in the directory's place, even to the user's own: not the login's.
        std::fs::remove_dir(&login).expect("rmdir");
        std::os::unix::fs::symlink(&other, &login).expect("symlink");
        assert_eq!(
            lockfile_dir_from(&no_env, uid),
            PathBuf::from(format!("/tmp/reactor-devtools-{uid}")),
            "a symbolic link"
        );
        let set = env_at(base.path(), &[("XDG_RUNTIME_DIR", "/elsewhere")]);
        assert_eq!(
            lockfile_dir_from(set, uid),
            PathBuf::from("/elsewhere/reactor-devtools"),
            "the variable wins when set"
        );
        let relative = |name: &str| (name == LOGIN_RUNTIME_BASE_VAR).then(|| OsString::from("run"));
        assert_eq!(
            lockfile_dir_from(relative, uid + 1),
            PathBuf::from(format!("/tmp/reactor-devtools-{}", uid + 1)),
            "a relative base is no base"
        );
    }

    /// [`login_base`]'s, with a `TMPDIR` in the base (`tmp`, not made) and the shared
    /// directory in it, `reactor-devtools-<uid>` (not made).
    #[cfg(all(unix, not(target_os = "macos")))]
    fn with_temp() -> (tempfile::TempDir, u32, PathBuf, String, PathBuf) {
        let (base, uid, login) = login_base();
        let temp = base.path().join("tmp");
        let shared = temp.join(format!("reactor-devtools-{uid}"));
        let temp = temp.to_str().expect("utf-8").to_owned();
        (base, uid, login, temp, shared)
    }

    /// [`with_temp`]'s base, uid and shared directory, and the environment of a reader
    /// whose `XDG_RUNTIME_DIR` is `/elsewhere` and `TMPDIR` that temporary directory.
    #[cfg(all(unix, not(target_os = "macos")))]
    fn elsewhere() -> (
        tempfile::TempDir,
        u32,
        PathBuf,
        impl Fn(&str) -> Option<OsString>,
    ) {
        let (base, uid, _, temp, shared) = with_temp();
        let env = env_at(
            base.path(),
            &[("XDG_RUNTIME_DIR", "/elsewhere"), ("TMPDIR", &temp)],
        );
        (base, uid, shared, env)
    }

    /// The directories [`lockfile_dirs_from`] searches, and what it says it refused.
    #[cfg(all(unix, not(target_os = "macos")))]
    fn searched(env: impl Fn(&str) -> Option<OsString>, uid: u32) -> (Vec<PathBuf>, Vec<String>) {
        let Searched { dirs, refused } = lockfile_dirs_from(env, uid);
        (dirs, refused)
    }

    /// The directories [`lockfile_dirs_from`] searches, where it refused none.
    #[cfg(all(unix, not(target_os = "macos")))]
    fn searched_all(env: impl Fn(&str) -> Option<OsString>, uid: u32) -> Vec<PathBuf> {
        let (dirs, refused) = searched(env, uid);
        assert_eq!(refused, Vec::<String>::new(), "refused: {dirs:?}");
        dirs
    }

    /// A reader without `XDG_RUNTIME_DIR` searches the login's runtime directory and
    /// `${TMPDIR:-/tmp}/reactor-devtools-<uid>`, where a writer that knows nothing of the
    /// login's announces itself: both, when both are there and the user's own.
    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn without_xdg_runtime_dir_a_reader_searches_the_login_s_and_the_shared_directory() {
        let (base, uid, login, temp, shared) = with_temp();
        let vars = [("TMPDIR", temp.as_str())];
        let env = env_at(base.path(), &vars);
        make_private(&shared);
        assert_eq!(searched_all(&env, uid), vec![shared.clone()], "no login's");
        make_private(&login);
        assert_eq!(
            searched_all(&env, uid),
            [login.join("reactor-devtools"), shared.clone()]
        );
        assert_eq!(
            lockfile_dir_from(&env, uid),
            login.join("reactor-devtools"),
            "written"
        );
        std::fs::remove_dir(&shared).expect("rmdir");
        assert_eq!(
            searched_all(&env, uid),
            [login.join("reactor-devtools")],
            "none there"
        );
    }

    /// A reader with `XDG_RUNTIME_DIR` searches the variable's directory, where it and
    /// every writer of its environment write, and `${TMPDIR:-/tmp}/reactor-devtools-<uid>`
    /// when it is there and the user's own: a writer started without the variable (a
    /// service, `sudo -u`, an IDE started from a desktop file) announces itself there.
    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn with_xdg_runtime_dir_a_reader_searches_its_directory_and_the_shared_one() {
        let (_base, uid, shared, env) = elsewhere();
        let own = PathBuf::from("/elsewhere/reactor-devtools");
        assert_eq!(searched_all(&env, uid), vec![own.clone()], "none there");
        make_private(&shared);
        assert_eq!(searched_all(&env, uid), [own.clone(), shared.clone()]);
        assert_eq!(lockfile_dir_from(&env, uid), own, "written");
    }

    /// The shared directory is searched only when it is the user's own and no one else
    /// can write to it: in a shared `/tmp`, anyone can make it first. One that is not is
    /// refused, in one line saying why, never followed.
    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn a_shared_directory_others_made_or_can_write_to_is_refused_saying_why() {
        let (base, uid, shared, env) = elsewhere();
        let own = vec![PathBuf::from("/elsewhere/reactor-devtools")];
        let shown = shared.display();
        // What is searched when the shared directory is refused, `why`.
        let refused = |why: &str| {
            let line = format!("refusing lockfile directory `{shown}`: {why}");
            (own.clone(), vec![line])
        };
        std::fs::create_dir_all(&shared).expect("mkdir");
        chmod(&shared, 0o777);
        assert_eq!(
            searched(&env, uid),
            refused("writable by group or others (mode 777)")
        );
        chmod(&shared, 0o700);
        // Another user's: only root can give a directory away to make one.
        if crate::trust::current_uid() == 0 {
            std::os::unix::fs::chown(&shared, Some(65534), None).expect("chown");
            assert_eq!(
                searched(&env, uid),
                refused("owned by uid 65534, not by you (uid 0)")
            );
        }
        std::fs::remove_dir(&shared).expect("rmdir");
        std::os::unix::fs::symlink(base.path(), &shared).expect("symlink");
        assert_eq!(searched(&env, uid), refused("it is a symbolic link"));
        std::fs::remove_file(&shared).expect("rm");
        std::fs::write(&shared, "").expect("a file");
        chmod(&shared, 0o600);
        assert_eq!(searched(&env, uid), refused("it is not a directory"));
    }

    /// A folder holding one project file names it; with none or several, or another
    /// file beside it (a folder or a file named like one is none), the folder is kept.
    #[test]
    fn a_folder_names_the_one_project_file_directly_in_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let app = dir.path().join("app");
        std::fs::create_dir_all(app.join("tests.csproj")).expect("a folder named like one");
        std::fs::create_dir_all(app.join("deep")).expect("deep");
        std::fs::write(app.join("deep/Deep.csproj"), "").expect("deeper down");
        std::fs::write(app.join("README.md"), "").expect("readme");
        assert_eq!(project_file(&app), app, "none: the folder");
        std::fs::write(app.join("App.csproj"), "").expect("project");
        assert_eq!(project_file(&app), app.join("App.csproj"));
        assert_eq!(
            project_file(&app.join("App.csproj")),
            app.join("App.csproj")
        );
        std::fs::write(app.join("Lib.FSPROJ"), "").expect("second project");
        assert_eq!(project_file(&app), app, "several: the folder");
        let missing = dir.path().join("gone/Tools.csproj");
        assert_eq!(project_file(&missing), missing);
    }

    #[test]
    fn canonical_project_is_absolute_and_resolves_dot_segments() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("App.csproj");
        std::fs::write(&file, "").expect("write");
        let via_dots = dir.path().join("sub/../App.csproj");
        std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
        assert_eq!(
            canonical_project(&file).expect("canon"),
            canonical_project(&via_dots).expect("canon")
        );
        assert!(Path::new(&canonical_project(&file).expect("canon")).is_absolute());
    }

    /// A bridge's project file usually does not exist: `..` in its path is still
    /// resolved, through symlinks as far as the directories exist, so two spellings
    /// of one project are one session (a second bridge is refused, exit 3).
    #[test]
    fn a_project_that_does_not_exist_is_cleaned_of_dot_segments() {
        let dir = tempfile::tempdir().expect("tempdir");
        let real = std::fs::canonicalize(dir.path()).expect("canon");
        std::fs::create_dir_all(real.join("ev")).expect("mkdir");
        std::fs::create_dir_all(real.join("b2")).expect("mkdir");
        let want = real.join("ev/Ev.csproj").to_string_lossy().into_owned();
        for spelling in [
            "b2/../ev/Ev.csproj",
            "ev/./Ev.csproj",
            "ev/nope/../Ev.csproj",
            "b2/../../b2/../ev/Ev.csproj",
        ] {
            let spelling = if spelling.starts_with("b2/../../") {
                // Up out of the temp dir and back in by its own name.
                let name = real.file_name().expect("name").to_string_lossy();
                real.join(spelling.replace("../b2", &format!("../{name}/b2")))
            } else {
                real.join(spelling)
            };
            assert_eq!(
                canonical_project(&spelling).expect("canon"),
                want,
                "{}",
                spelling.display()
            );
        }
        #[cfg(unix)]
        {
            // A symlinked directory that exists is resolved before `..` is taken.
            std::os::unix::fs::symlink(real.join("ev"), real.join("link")).expect("symlink");
            assert_eq!(
                canonical_project(&real.join("link/Ev.csproj")).expect("canon"),
                want
            );
        }
    }
}
