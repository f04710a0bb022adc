//! `mur devtools session list` and `session clean`.

use mur_e2e::{Sandbox, Stub, dead_pid, free_port};

#[test]
fn list_prints_one_json_line_per_live_session() {
    let sb = Sandbox::new();
    // Two projects whose lockfiles' names (hashes) sort the other way round.
    let name = |dir: &str| {
        let project = sb.file(&format!("{dir}/App.csproj"), "");
        let canonical = mur_lockfile::paths::canonical_project(&project).expect("canonical");
        (project, mur_lockfile::paths::lockfile_name(&canonical))
    };
    let (first, first_lock) = name("a");
    let (second, _) = (1..)
        .map(|n| name(&format!("b{n}")))
        .find(|(_, lock)| *lock < first_lock)
        .expect("a project whose lockfile sorts first");
    let (a, b) = (sb.start_sample(&first), sb.start_sample(&second));
    let out = sb.mur(&["devtools", "session", "list"]);
    out.assert_quiet_success();
    // By project (`…/a/App.csproj` before `…/bN/…`), not by the lockfiles' names.
    let lines = out.json_lines();
    let samples = [&a, &b];
    assert_eq!(lines.len(), 2);
    for (line, sample) in lines.iter().zip(samples) {
        assert_eq!(
            line,
            &serde_json::to_value(&sample.lock).expect("lock json")
        );
    }
    assert!(
        out.stdout
            .starts_with("{\"schema\":\"reactor-devtools-lockfile/1\",\"endpoint\":"),
        "seed field order: {out}"
    );
}

#[test]
fn list_pretty_prints_a_table() {
    let (sb, sample) = Sandbox::with_app();
    let out = sb.mur(&["devtools", "session", "list", "--pretty"]);
    out.assert_code(0);
    let mut lines = out.stdout.lines();
    assert!(
        lines.next().expect("header").starts_with("PROJECT"),
        "{out}"
    );
    let row = lines.next().expect("row");
    assert!(
        row.contains(&sample.lock.project) && row.contains(sample.endpoint()),
        "{out}"
    );
}

#[test]
fn list_with_no_live_session_exits_4() {
    let sb = Sandbox::new();
    sb.plant_http_lockfile("/gone/App.csproj", dead_pid(), free_port());
    let out = sb.mur(&["devtools", "session", "list"]);
    out.assert_code(4).assert_stdout_is("");
}

/// `--project` narrows the list to that project's session, and its exit code too: a
/// script asking whether P's session is up gets 4 when only other projects' run. Before,
/// `--project` was ignored: every session was listed and the exit was 0.
#[test]
fn list_with_project_lists_only_that_projects_session() {
    let (sb, [a, b]) = Sandbox::with_apps(["a", "b"]);
    let out = sb.mur(&["devtools", "session", "list", "--project", &a.lock.project]);
    out.assert_quiet_success().assert_stdout_is(format!(
        "{}\n",
        serde_json::to_string(&a.lock).expect("lock json")
    ));

    let idle = sb.project("idle");
    let idle_arg = idle.to_str().expect("utf-8 path");
    let out = sb.mur(&["devtools", "session", "list", "--project", idle_arg]);
    out.assert_code(4).assert_stdout_is("");
    out.assert_stderr_is(format!(
        "error: no live devtools session for project `{}`\n{}\
         hint: these sessions are of other projects: `mur devtools session list` lists them all\n",
        sb.canonical_project(&idle),
        mur_e2e::session_rows(&[&a, &b]),
    ));
}

/// A lone session that runs but does not answer: exit 2, said once, with the sessions
/// listed and how to resume a stopped one. Before, a warning and the error said the same.
#[test]
fn list_with_only_a_stopped_session_says_so_once_with_exit_2() {
    let (sb, app) = Sandbox::with_app();
    app.signal("STOP");
    let out = sb.mur(&["devtools", "session", "list"]);
    app.signal("CONT");
    out.assert_code(2).assert_stdout_is("");
    assert_eq!(
        out.stderr,
        format!(
            "error: no session answered its probe\n  \
             the session for `{}` (pid {pid}) at `{}` runs but did not answer the probe within 1500 ms\n\
             hint: is it stopped in a debugger or overloaded? `kill -CONT {pid}` resumes a stopped process\n",
            app.lock.project,
            app.endpoint(),
            pid = app.pid()
        )
    );
}

#[test]
fn list_shows_stdio_sessions() {
    let sb = Sandbox::new();
    sb.plant_stdio_lockfile("/stdio/App.csproj", std::process::id());
    let out = sb.mur(&["devtools", "session", "list"]);
    out.assert_code(0);
    assert_eq!(out.json_lines()[0]["transport"], "stdio");
    assert_eq!(out.json_lines()[0]["endpoint"], "stdio");
}

#[test]
fn clean_removes_only_dead_lockfiles() {
    let sb = Sandbox::new();
    let sample = sb.start_sample(&sb.project("live"));
    let web = Stub::plain_http();
    let busy = sb.plant_http_lockfile("/busy/App.csproj", std::process::id(), web.port());
    let dead1 = sb.plant_http_lockfile("/gone1/App.csproj", dead_pid(), free_port());
    let dead2 = sb.plant_http_lockfile("/gone2/App.csproj", dead_pid(), free_port());

    let dry = sb.mur(&["devtools", "session", "clean", "--dry-run"]);
    dry.assert_code(0);
    let mut listed: Vec<&str> = dry.stdout.lines().collect();
    listed.sort_unstable();
    let mut expected = vec![
        dead1.to_str().expect("utf-8"),
        dead2.to_str().expect("utf-8"),
    ];
    expected.sort_unstable();
    assert_eq!(listed, expected, "{dry}");
    assert_eq!(dry.stderr, "would remove 2 stale entries\n");
    assert!(
        dead1.exists() && dead2.exists(),
        "--dry-run touches nothing"
    );

    let out = sb.mur(&["devtools", "session", "clean"]);
    out.assert_code(0).assert_stdout_is("");
    assert_eq!(out.stderr, "removed 2 stale entries\n");
    assert!(!dead1.exists() && !dead2.exists());
    assert!(
        sample.lockfile.exists(),
        "a live session's lockfile is never touched"
    );
    assert!(
        busy.exists(),
        "a lockfile whose process runs is never touched"
    );
    sb.mur(&["devtools", "call", "version"]).assert_code(0);
}

#[test]
fn clean_after_a_crash_leaves_no_entry() {
    let (sb, sample) = Sandbox::with_app();
    let lockfile = sample.lockfile.clone();
    sample.kill();
    assert!(
        lockfile.exists(),
        "a killed session leaves its lockfile behind"
    );
    let out = sb.mur(&["devtools", "session", "clean"]);
    out.assert_code(0)
        .assert_stderr_is("removed 1 stale entry\n");
    assert!(!lockfile.exists());
    sb.mur(&["devtools", "session", "list"]).assert_code(4);
}

#[cfg(unix)]
#[test]
fn clean_dry_run_prints_names_a_shell_can_read_back() {
    use std::os::unix::ffi::OsStrExt;
    let sb = Sandbox::new();
    let lock = mur_lockfile::Lockfile::http(
        free_port(),
        dead_pid(),
        "/gone/App.csproj".into(),
        "b".into(),
    );
    let plain = sb.plant_lockfile(&lock.project, &serde_json::to_string(&lock).expect("json"));
    let odd = sb
        .lockfile_dir()
        .join(std::ffi::OsStr::from_bytes(b"st\xffale.json"));
    std::fs::copy(&plain, &odd).expect("copy");
    let out = sb.mur(&["devtools", "session", "clean", "--dry-run"]);
    out.assert_code(0);
    let dir = sb.lockfile_dir().display().to_string();
    let mut lines: Vec<&str> = out.stdout.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            format!("$'{dir}/st\\xffale.json'"),
            plain.display().to_string()
        ]
    );
    assert_eq!(out.stderr, "would remove 2 stale entries\n");
    // What a shell makes of the quoted word is the file's real name.
    let echoed = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("printf %s {}", lines[0]))
        .output()
        .expect("bash");
    assert_eq!(echoed.stdout, odd.as_os_str().as_bytes());
}

#[test]
fn list_auto_adds_sessions_found_by_the_port_scan() {
    let sb = Sandbox::new();
    let port = free_port();
    let sample = sb.start_sample_with(&sb.project("app"), &["--port", &port.to_string()]);
    std::fs::remove_file(&sample.lockfile).expect("delete lockfile");
    sb.mur(&["devtools", "session", "list"]).assert_code(4);
    let range = format!("{port}-{port}");
    let out = sb.mur(&["devtools", "--auto-range", &range, "session", "list"]);
    out.assert_code(0);
    assert_eq!(
        out.json_lines(),
        [serde_json::to_value(&sample.lock).expect("lock json")],
        "the probe's facts, in the lockfile's shape"
    );
}
