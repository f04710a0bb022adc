//! The lockfile directory as a reader and a writer see it.

use std::{
    fs,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use mur_lockfile::{Lockfile, ReadOutcome, Registry};

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
    assert!(
        !path.with_extension("json.tmp").exists(),
        "temporary file left behind"
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

fn write_private(path: &std::path::Path, bytes: &[u8]) {
    fs::write(path, bytes).expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o600)).expect("chmod");
    }
}
