//! The lockfile directory as a reader and a writer see it.

use std::{
    fs,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use mur_lockfile::{Lockfile, ReadOutcome, Registry, SlotLock};

fn registry() -> (tempfile::TempDir, Registry) {
    let dir = tempfile::tempdir().expect("tempdir");
    let registry = Registry::at(dir.path().join("reactor-devtools"));
    (dir, registry)
}

fn sample_lock(project: &str) -> Lockfile {
    Lockfile::http(
        54931,
        std::process::id(),
        project.to_owned(),
        "build-1".to_owned(),
    )
}

/// A lockfile of `/p/A.csproj` started long ago, as a reader judges it stale, written
/// to `registry`: it and its path.
fn stale_lock_written(registry: &Registry) -> (Lockfile, std::path::PathBuf) {
    let mut judged = sample_lock("/p/A.csproj");
    judged.started_at = "2001-01-01T00:00:00Z".into();
    let path = registry.write(&judged).expect("write");
    (judged, path)
}

#[test]
fn a_written_lockfile_reads_back_equal_under_its_hashed_name() {
    let (_guard, registry) = registry();
    let lock = sample_lock("/home/me/app/App.csproj");
    let path = registry.write(&lock).expect("write");
    assert_eq!(path, registry.path_for("/home/me/app/App.csproj"));
    assert_eq!(
        path.file_name().and_then(|n| n.to_str()).map(str::len),
        Some(21)
    );
    assert_eq!(registry.read(&path), ReadOutcome::Valid(lock));
    let leftovers: Vec<_> = fs::read_dir(registry.dir())
        .expect("list")
        .map(|entry| entry.expect("entry").file_name())
        .filter(|name| name.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary files left behind: {leftovers:?}"
    );
}

#[cfg(unix)]
#[test]
fn directory_is_private_and_file_is_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let (_guard, registry) = registry();
    let path = registry.write(&sample_lock("/p/A.csproj")).expect("write");
    let dir_mode = fs::metadata(registry.dir())
        .expect("dir")
        .permissions()
        .mode()
        & 0o777;
    let file_mode = fs::metadata(&path).expect("file").permissions().mode() & 0o777;
    assert_eq!(dir_mode, 0o700);
    assert_eq!(file_mode, 0o600);
}

#[cfg(unix)]
#[test]
fn a_group_writable_lockfile_or_directory_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let (_guard, registry) = registry();
    let path = registry.write(&sample_lock("/p/A.csproj")).expect("write");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o666)).expect("chmod");
    assert!(
        matches!(registry.read(&path), ReadOutcome::Untrusted(reason) if reason.contains("writable by group or others"))
    );
    fs::set_permissions(registry.dir(), fs::Permissions::from_mode(0o777)).expect("chmod");
    assert!(registry.check_dir_trusted().is_err());
    assert!(registry.ensure_dir().is_err());
}

/// A file where the lockfile directory is to be is refused naming it, before anything
/// is written: it was taken for the directory, and a lockfile written into it failed
/// "Not a directory", naming the lockfile.
#[test]
fn a_file_where_the_lockfile_directory_is_to_be_is_refused() {
    let (_guard, registry) = registry();
    fs::create_dir_all(registry.dir().parent().expect("a parent")).expect("parent");
    fs::write(registry.dir(), "").expect("a file");
    let refused = registry.ensure_dir().expect_err("a file");
    assert_eq!(
        refused.to_string(),
        format!(
            "refusing lockfile directory `{}`: it is a file, not a directory (move it away, and \
             the directory is made where it was)",
            registry.dir().display()
        )
    );
    let written = registry
        .write(&sample_lock("/p/A.csproj"))
        .expect_err("refused");
    assert_eq!(written.to_string(), refused.to_string());
}

/// A lockfile a .NET app wrote with `Encoding.UTF8` starts with a byte order mark, which
/// RFC 8259 lets a parser ignore: it reads as the lockfile it is (it was "not JSON", and
/// `session clean` removed a running session's file), a BOM anywhere else does not.
#[test]
fn a_lockfile_starting_with_a_utf8_bom_reads_as_valid() {
    let (_guard, registry) = registry();
    registry.ensure_dir().expect("dir");
    let lock = sample_lock("/p/A.csproj");
    let json = serde_json::to_string_pretty(&lock).expect("json");
    let path = registry.path_for(&lock.project);
    write_private(&path, format!("\u{feff}{json}\r\n").as_bytes());
    assert_eq!(registry.read(&path), ReadOutcome::Valid(lock));
    assert!(matches!(registry.remove_if_malformed(&path), Ok(false)));
    assert!(
        path.exists(),
        "a valid lockfile is no malformed one to remove"
    );
    // Twice, or inside the JSON, it is no BOM a writer puts first: not JSON.
    write_private(&path, format!("\u{feff}\u{feff}{json}").as_bytes());
    assert!(
        matches!(registry.read(&path), ReadOutcome::Malformed(why) if why.starts_with("not JSON")),
    );
}

#[test]
fn malformed_and_unknown_schema_files_are_classified_not_fatal() {
    let (_guard, registry) = registry();
    registry.ensure_dir().expect("dir");
    let garbage = registry.dir().join("0000000000000001.json");
    let future = registry.dir().join("0000000000000002.json");
    let partial = registry.dir().join("0000000000000003.json");
    write_private(&garbage, b"{not json");
    write_private(
        &future,
        br#"{"schema":"reactor-devtools-lockfile/2","endpoint":"x"}"#,
    );
    write_private(
        &partial,
        br#"{"schema":"reactor-devtools-lockfile/1","endpoint":"x"}"#,
    );
    write_private(&registry.dir().join("0000000000000004.json.tmp"), b"half");
    let entries = registry.scan().expect("scan");
    assert_eq!(entries.len(), 3, "the .json.tmp file is not a lockfile");
    assert!(matches!(&entries[0].outcome, ReadOutcome::Malformed(_)));
    assert_eq!(
        entries[1].outcome,
        ReadOutcome::UnknownSchema("reactor-devtools-lockfile/2".into())
    );
    assert!(
        matches!(&entries[2].outcome, ReadOutcome::Malformed(reason) if reason.contains("missing field"))
    );
}

#[test]
fn a_missing_directory_scans_empty_and_removing_twice_is_fine() {
    let (_guard, registry) = registry();
    assert!(registry.scan().expect("scan").is_empty());
    let path = registry.write(&sample_lock("/p/A.csproj")).expect("write");
    registry.remove(&path).expect("remove");
    registry.remove(&path).expect("remove again");
    assert!(registry.scan().expect("scan").is_empty());
}

#[test]
fn a_reader_never_sees_a_partial_file_while_a_writer_rewrites_it() {
    let (_guard, registry) = registry();
    let path = registry
        .write(&sample_lock("/p/A.csproj"))
        .expect("first write");
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (registry, stop) = (registry.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut round = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let mut lock = sample_lock("/p/A.csproj");
                // Vary the length so a torn write would show as bad JSON.
                lock.build_tag = "x".repeat((round % 400) as usize);
                registry.write(&lock).expect("rewrite");
                round += 1;
            }
            round
        })
    };
    for _ in 0..2000 {
        match registry.read(&path) {
            ReadOutcome::Valid(lock) => assert_eq!(lock.project, "/p/A.csproj"),
            other => panic!("reader saw {other:?}"),
        }
    }
    stop.store(true, Ordering::Relaxed);
    let rounds = writer.join().expect("writer");
    assert!(rounds > 0);
}

#[test]
fn a_missing_file_reads_as_gone_not_as_one_that_cannot_be_inspected() {
    let (_guard, registry) = registry();
    registry.ensure_dir().expect("dir");
    assert_eq!(
        registry.read(&registry.path_for("/p/never/App.csproj")),
        ReadOutcome::Gone
    );
}

#[test]
fn a_scan_leaves_out_files_removed_while_it_lists_the_directory() {
    // Another reader removing stale files while this one scanned: the files it
    // listed and then could not open were reported as "cannot inspect lockfile …:
    // No such file or directory", one warning each on every concurrent `mur`.
    let (_guard, registry) = registry();
    let kept_lock = sample_lock("/p/kept/App.csproj");
    let kept = registry.write(&kept_lock).expect("write");
    let stop = Arc::new(AtomicBool::new(false));
    let names: Vec<_> = (0..20)
        .map(|i| registry.write(&sample_lock(&format!("/p/{i}/App.csproj"))))
        .collect::<Result<Vec<_>, _>>()
        .expect("write")
        .into_iter()
        .map(|path| path.file_name().expect("name").to_owned())
        .collect();
    // Files leave the directory and come back whole (renames), as fast as they can.
    let aside = registry.dir().with_file_name("aside");
    fs::create_dir(&aside).expect("aside");
    let remover = {
        let (dir, stop) = (registry.dir().to_owned(), stop.clone());
        std::thread::spawn(move || {
            let mut rounds = 0u64;
            while !stop.load(Ordering::Relaxed) {
                for (from, to) in [(&dir, &aside), (&aside, &dir)] {
                    for name in &names {
                        fs::rename(from.join(name), to.join(name)).expect("rename");
                    }
                }
                rounds += 1;
            }
            rounds
        })
    };
    for _ in 0..500 {
        for entry in registry.scan().expect("scan") {
            assert!(
                matches!(&entry.outcome, ReadOutcome::Valid(_)),
                "{}: {:?}",
                entry.path.display(),
                entry.outcome
            );
        }
    }
    stop.store(true, Ordering::Relaxed);
    assert!(remover.join().expect("remover") > 0);
    assert_eq!(registry.read(&kept), ReadOutcome::Valid(kept_lock));
}

#[test]
fn writers_racing_on_one_project_never_fail_and_leave_one_whole_file() {
    // Before each writer had its own temporary name, two writers renamed the
    // same `<hash>.json.tmp` and the loser failed with "No such file".
    let (_guard, registry) = registry();
    registry.ensure_dir().expect("dir");
    let writers: Vec<_> = (0..8)
        .map(|n| {
            let registry = registry.clone();
            std::thread::spawn(move || {
                for round in 0..50 {
                    let mut lock = sample_lock("/p/A.csproj");
                    lock.build_tag = format!("writer-{n}-{round}");
                    registry.write(&lock).expect("every write succeeds");
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().expect("writer");
    }
    let entries = registry.scan().expect("scan");
    assert_eq!(entries.len(), 1);
    assert!(
        matches!(&entries[0].outcome, ReadOutcome::Valid(lock) if lock.build_tag.starts_with("writer-"))
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_symlink_under_a_lockfile_name_is_judged_without_blocking() {
    let (_guard, registry) = registry();
    registry.ensure_dir().expect("dir");
    let fifo = registry.dir().join("00000000000000ff.json");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    // Before the non-blocking open, this read waited forever for a writer.
    assert_eq!(
        registry.read(&fifo),
        ReadOutcome::Malformed("a FIFO, not a file".into())
    );
    let target = registry.write(&sample_lock("/p/A.csproj")).expect("write");
    let link = registry.dir().join("00000000000000ee.json");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    assert!(
        matches!(registry.read(&link), ReadOutcome::Untrusted(reason) if reason.ends_with("it is a symbolic link")),
        "a symlink is refused as one, not as `mode 777`"
    );
}

/// A directory under a lockfile's name: an empty one is malformed and removed as one
/// (`remove_if_malformed` said "Is a directory", and left a slot lock made for it); one
/// with something in it is refused, as nothing mur removes.
#[test]
fn an_empty_directory_under_a_lockfile_name_goes_and_a_full_one_is_refused() {
    let (_guard, registry) = registry();
    registry.ensure_dir().expect("dir");
    let empty = registry.dir().join("f000000000000007.json");
    fs::create_dir(&empty).expect("mkdir");
    assert_eq!(
        registry.read(&empty),
        ReadOutcome::Malformed("a directory, not a file".into())
    );
    assert!(registry.remove_if_malformed(&empty).expect("removed"));
    assert!(!empty.exists());
    assert!(
        !mur_lockfile::lock_path(&empty).exists(),
        "a slot lock made"
    );

    let full = registry.dir().join("f000000000000008.json");
    fs::create_dir(&full).expect("mkdir");
    fs::write(full.join("notes.txt"), "mine").expect("write");
    assert_eq!(
        registry.read(&full),
        ReadOutcome::Untrusted(format!(
            "refusing `{}`: a directory with files in it, not a lockfile (mur removes no \
             directory that is not empty)",
            full.display()
        ))
    );
}

#[test]
fn a_reader_removes_a_stale_file_only_if_unchanged_and_the_slot_is_free() {
    let (_guard, registry) = registry();
    let (judged, path) = stale_lock_written(&registry);

    // A session holds the slot (starting, or running): hands off.
    let slot = SlotLock::try_acquire(&path).expect("lock").expect("free");
    assert!(!registry.remove_if_unchanged(&path, &judged).expect("try"));
    assert!(path.exists());

    // The session replaced the file the reader judged: the fresh one stays.
    let fresh = sample_lock("/p/A.csproj");
    registry.write(&fresh).expect("fresh write");
    drop(slot);
    assert!(!registry.remove_if_unchanged(&path, &judged).expect("try"));
    assert_eq!(registry.read(&path), ReadOutcome::Valid(fresh.clone()));

    // Unchanged and unheld: removed, with the slot's lock file (a `session clean`
    // had to come twice: the removal had made the lock, and left it).
    assert!(registry.remove_if_unchanged(&path, &fresh).expect("try"));
    assert!(!path.exists());
    assert!(
        !mur_lockfile::lock_path(&path).exists(),
        "the lock file was left"
    );
    // So is a malformed file's; a slot free again is taken as before.
    write_private(&path, b"{not json");
    assert!(registry.remove_if_malformed(&path).expect("try"));
    assert!(!path.exists());
    assert!(
        !mur_lockfile::lock_path(&path).exists(),
        "the lock file was left"
    );
    assert!(SlotLock::try_acquire(&path).expect("lock").is_some());
}

fn write_private(path: &std::path::Path, bytes: &[u8]) {
    fs::write(path, bytes).expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o600)).expect("chmod");
    }
}

/// A reader's registry searches several directories (the login's runtime directory and
/// the shared one, `paths::lockfile_dirs`): it writes to the first, and its scans, file
/// listings, a project's paths and an ended session's leftovers cover each.
#[test]
fn a_registry_of_several_directories_writes_to_the_first_and_reads_each() {
    let root = tempfile::tempdir().expect("tempdir");
    let (first, second) = (root.path().join("login"), root.path().join("shared"));
    let registry = Registry::searching(vec![first.clone(), second.clone()]);
    let elsewhere = Registry::at(second.clone());
    let here = registry
        .write(&sample_lock("/a/App.csproj"))
        .expect("write");
    let there = elsewhere
        .write(&sample_lock("/b/App.csproj"))
        .expect("write");
    assert!(here.starts_with(&first), "{}", here.display());
    let scanned: Vec<_> = registry
        .scan()
        .expect("scan")
        .into_iter()
        .map(|entry| entry.path)
        .collect();
    assert_eq!(scanned, [here.clone(), there.clone()]);
    assert_eq!(
        registry.paths_for("/b/App.csproj"),
        [first.join(there.file_name().expect("name")), there.clone()]
    );
    assert_eq!(
        registry.searched(),
        format!("`{}` or `{}`", first.display(), second.display())
    );

    // An ended session's slot lock in each; the lockfiles gone.
    for lockfile in [&here, &there] {
        fs::write(mur_lockfile::lock_path(lockfile), "").expect("slot lock");
        fs::remove_file(lockfile).expect("rm");
    }
    assert_eq!(
        registry.files("lock"),
        [here.with_extension("lock"), there.with_extension("lock")]
    );
    let cleared = registry.leftovers(|_| Vec::new()).clear();
    assert_eq!(
        cleared.removed,
        [here.with_extension("lock"), there.with_extension("lock")]
    );

    // A directory that cannot be listed is named.
    fs::remove_dir_all(&second).expect("rm");
    fs::write(&second, "not a directory").expect("a file in its place");
    let unlisted = registry.scan_naming().expect_err("unlisted");
    assert_eq!(unlisted.dir, second);
}

/// A reader bounded by `--timeout` stops reading the directory at its deadline (`None`):
/// a directory of ten thousand files held every command for more than half a second
/// whatever its bound, as the read is no async work a timer can cut short.
#[test]
fn a_scan_stops_at_its_deadline() {
    let (_guard, registry) = registry();
    registry.ensure_dir().expect("dir");
    for n in 0..200 {
        write_private(&registry.dir().join(format!("{n:016x}.json")), b"{");
    }
    let past = std::time::Instant::now();
    assert_eq!(registry.scan_until(Some(past)).expect("listed"), None);
    let later = std::time::Instant::now() + std::time::Duration::from_secs(600);
    let scanned = registry.scan_until(Some(later)).expect("listed");
    assert_eq!(scanned.map(|entries| entries.len()), Some(200));
    assert_eq!(registry.scan().expect("scan").len(), 200);
}

/// A stale lockfile whose slot lock is none (a FIFO here) is left by a reader, which
/// names the slot lock and what it is, and removed by `session clean` (`clearing`),
/// with what was in the slot lock's place.
#[cfg(unix)]
#[test]
fn a_stale_lockfile_behind_a_slot_lock_that_is_none_goes_only_when_clearing() {
    let (_guard, registry) = registry();
    let (judged, path) = stale_lock_written(&registry);
    let lock = mur_lockfile::lock_path(&path);
    let made = std::process::Command::new("mkfifo").arg(&lock).status();
    assert!(made.expect("mkfifo").success());
    let files = [(path.as_path(), &judged)];

    let read = registry.remove_all_if_unchanged(&files, None, false);
    let [Some(Err(err))] = read.as_slice() else {
        panic!("{read:?}");
    };
    assert_eq!(
        err.to_string(),
        format!(
            "slot lock `{}` is a FIFO, not a regular file",
            lock.display()
        )
    );
    assert!(path.exists());
    let cleaned = registry.remove_all_if_unchanged(&files, None, true);
    assert!(
        matches!(cleaned.as_slice(), [Some(Ok(true))]),
        "{cleaned:?}"
    );
    assert!(!path.exists() && fs::symlink_metadata(&lock).is_err());
}
