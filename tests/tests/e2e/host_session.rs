//! `mur devtools session list` and `session clean`.

use std::path::{Path, PathBuf};

use mur_e2e::stub::Reply;
use mur_e2e::{Adopted, Output, Sandbox, Stub, dead_pid, free_port, silent_block};
use serde_json::Value;

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

/// `session list --json` is taken, as the other listings' `--json` is (it was refused:
/// "unexpected argument"): the JSON lines it prints anyway, even beside `--pretty`.
#[test]
fn list_json_prints_the_json_lines_even_with_pretty() {
    let (sb, _sample) = Sandbox::with_app();
    let lines = sb.mur(&["devtools", "session", "list"]);
    lines.assert_code(0);
    for args in [&["--json"][..], &["--json", "--pretty"]] {
        let out = sb.mur(&[&["devtools", "session", "list"][..], args].concat());
        out.assert_code(0).assert_stdout_is(&lines.stdout);
    }
}

#[test]
fn list_with_no_live_session_exits_4() {
    let sb = Sandbox::new();
    sb.plant_http_lockfile("/gone/App.csproj", dead_pid(), free_port());
    let out = sb.mur(&["devtools", "session", "list"]);
    out.assert_code(4).assert_stdout_is("");
}

/// `session list` removing the lockfile of a session whose app was killed says that
/// the session ended, once; with `--project` of another, or `-q`, not a word.
#[test]
fn list_says_once_that_a_killed_apps_session_ended() {
    let (sb, [a, b]) = Sandbox::with_apps(["a", "b"]);
    let listed = format!("{}\n", serde_json::to_string(&a.lock).expect("lock json"));
    let (project, pid) = (b.lock.project.clone(), b.pid());
    b.kill();
    let out = sb.mur(&["devtools", "session", "list"]);
    out.assert_code(0).assert_stdout_is(&listed);
    out.assert_stderr_is(crate::host_discovery::ended_note(&project, pid));
    sb.mur(&["devtools", "session", "list"])
        .assert_quiet_success()
        .assert_stdout_is(&listed);
    for words in [
        &["devtools", "session", "list", "--project", &a.lock.project][..],
        &["devtools", "-q", "session", "list"],
    ] {
        let c = sb.start_sample(&sb.project("c"));
        let lockfile = c.lockfile.clone();
        c.kill();
        sb.mur(words)
            .assert_quiet_success()
            .assert_stdout_is(&listed);
        assert!(
            !lockfile.exists(),
            "{words:?}: the stale lockfile is removed"
        );
    }
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
    let sb = Sandbox::with_stdio_session();
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

/// A running session whose lockfile starts with a UTF-8 BOM (a .NET app writing with
/// `Encoding.UTF8`) is listed and called, and `session clean` leaves it: it read as "not
/// JSON" everywhere, and a clean of a session holding no slot (the seed's apps) removed it.
#[test]
fn a_lockfile_with_a_utf8_bom_is_a_live_sessions_listed_called_and_kept() {
    let (sb, app) = Sandbox::with_app();
    let written = std::fs::read(&app.lockfile).expect("lockfile");
    std::fs::write(&app.lockfile, [&b"\xEF\xBB\xBF"[..], &written].concat()).expect("BOM");
    let listed = format!("{}\n", serde_json::to_string(&app.lock).expect("lock json"));
    sb.mur(&["devtools", "session", "list"])
        .assert_quiet_success()
        .assert_stdout_is(&listed);
    sb.mur(&["devtools", "call", "version"])
        .assert_quiet_success()
        .assert_answered_by(app.pid());
    cleans_nothing(&sb);
    assert!(app.lockfile.exists(), "a live session's lockfile is kept");
}

/// `session clean --dry-run`, then `session clean`: each says it removes nothing.
fn cleans_nothing(sb: &Sandbox) {
    for (args, said) in [
        (
            &["devtools", "session", "clean", "--dry-run"][..],
            "would remove 0 stale entries\n",
        ),
        (
            &["devtools", "session", "clean"],
            "removed 0 stale entries\n",
        ),
    ] {
        sb.mur(args)
            .assert_code(0)
            .assert_stdout_is("")
            .assert_stderr_is(said);
    }
}

/// `session clean --dry-run` says what the clean would do: a live session's lockfile that
/// reads as stale (its `startedAt` after its process started) or as malformed is none it
/// would remove, as its session holds the slot. The dry run listed it ("would remove 1
/// stale entry") while the clean removed nothing.
#[test]
fn clean_dry_run_leaves_out_what_the_clean_leaves_a_running_session() {
    let (sb, app) = Sandbox::with_app();
    let mut past = app.lock.clone();
    past.started_at = "2000-01-01T00:00:00Z".to_owned();
    for contents in [
        serde_json::to_string(&past).expect("json"),
        "{ not json".to_owned(),
    ] {
        std::fs::write(&app.lockfile, &contents).expect("rewrite");
        cleans_nothing(&sb);
        assert!(app.lockfile.exists(), "{contents}: kept");
    }
}

/// A newline in a lockfile's name or fields reaches stderr escaped (`\x0a`), as ESC did,
/// on each line that quotes one: it started a line of its own, `error: forged…`.
#[test]
fn a_newline_in_a_lockfile_s_name_or_fields_forges_no_line() {
    let (sb, app) = Sandbox::with_app();
    let forged = "\nerror: forged";
    let dir = sb.lockfile_dir();
    let evil = dir.join(format!("evil{forged}.json"));
    std::fs::write(&evil, "garbage").expect("plant");
    let schema = sb.plant_lockfile(
        "/schema",
        &format!(
            r#"{{"schema":"x{}","endpoint":"x"}}"#,
            forged.replace('\n', "\\n")
        ),
    );
    let json = |lock: &mur_lockfile::Lockfile| serde_json::to_string(lock).expect("json");
    let gone = mur_lockfile::Lockfile::http(1, dead_pid(), format!("/gone{forged}"), "t".into());
    sb.plant_lockfile(&gone.project, &json(&gone));
    let me = std::process::id();
    let mut far = mur_lockfile::Lockfile::http(1, me, "/far".into(), "t".into());
    far.endpoint = format!("http://example.com/{forged}");
    let far_path = sb.plant_lockfile(&far.project, &json(&far));
    let (_listener, port) = mur_e2e::silent_listener();
    let busy = mur_lockfile::Lockfile::http(port, me, format!("/busy{forged}"), "t".into());
    sb.plant_lockfile(&busy.project, &json(&busy));

    let out = sb.mur(&["devtools", "session", "list"]);
    out.assert_code(0)
        .assert_stdout_is(format!("{}\n", json(&app.lock)));
    let escaped = "\\x0aerror: forged";
    // Said as the directory is read, in the order of the files' names.
    let mut read = [
        (
            evil.clone(),
            format!(
                "warning: skipping malformed lockfile `{}/evil{escaped}.json`: not JSON: expected \
                 value at line 1 column 1 (`mur devtools session clean` removes it)\n",
                dir.display()
            ),
        ),
        (
            schema.clone(),
            format!(
                "warning: skipping lockfile `{}` of unknown schema `x{escaped}`\n",
                schema.display()
            ),
        ),
    ];
    read.sort();
    let read: String = read.into_iter().map(|(_, line)| line).collect();
    out.assert_stderr_is(format!(
        "{read}\
         note: the session of `/gone{escaped}` (pid {}) has ended without withdrawing its \
         lockfile: it crashed or was killed\n\
         warning: skipping lockfile `{}`: pid {me} runs, but `http://example.com/{escaped}` is \
         not a loopback address (only 127.0.0.0/8, ::1 and localhost are contacted)\n\
         warning: the session for `/busy{escaped}` (pid {me}) at `http://127.0.0.1:{port}/mcp` \
         runs but did not answer the probe within 1500 ms\n",
        gone.pid,
        far_path.display(),
    ));
}

/// A thousand crashed sessions' lockfiles: the reader that removes them says so in four
/// lines, not a thousand (the first three, then a count), as a `note:` from `session list`
/// and `hint:`s under a call's "no session"; and one whose `--timeout` runs out before it
/// gets to them leaves them, unsaid, for a later reader (one that runs out of it reading
/// them fails for that, exit 2: it knows no more what sessions there are).
#[test]
fn a_thousand_stale_lockfiles_are_told_in_a_few_lines_and_cleared_within_the_timeout() {
    let sb = Sandbox::new();
    let registry = sb.registry();
    let pid = dead_pid();
    let plant = || -> Vec<(PathBuf, String)> {
        let mut planted: Vec<(PathBuf, String)> = (0..1000)
            .map(|i| {
                let lock =
                    mur_lockfile::Lockfile::http(1, pid, format!("/s{i}/App.csproj"), "t".into());
                (registry.write(&lock).expect("write"), lock.project)
            })
            .collect();
        planted.sort();
        planted
    };
    let told = |prefix: &str, planted: &[(PathBuf, String)]| -> String {
        let named: String = planted[..3]
            .iter()
            .map(|(_, project)| {
                format!(
                    "{prefix}: the session of `{project}` (pid {pid}) has ended without \
                     withdrawing its lockfile: it crashed or was killed\n"
                )
            })
            .collect();
        format!(
            "{named}{prefix}: and 997 more sessions have ended without withdrawing their \
             lockfiles: they crashed or were killed\n"
        )
    };
    let searched = registry.searched();

    let planted = plant();
    let out = sb.mur(&["devtools", "session", "list"]);
    out.assert_code(4)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "{}error: no running devtools session found\n\
         hint: sessions announce themselves in {searched}\n",
            told("note", &planted)
        ));
    assert!(planted.iter().all(|(path, _)| !path.exists()), "removed");

    let planted = plant();
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_code(4)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: no running devtools session found\n{}\
         hint: start the app with its devtools session enabled (`mur devtools guide` says \
         how); `--auto` scans loopback ports for one that left no lockfile, `--endpoint URL` \
         reaches any other MCP server; a session announces itself in {searched}\n",
            told("hint", &planted)
        ));
    assert!(planted.iter().all(|(path, _)| !path.exists()), "removed");

    // Reading a thousand files takes longer than 1 ms: none is removed, nothing said but
    // that (it was exit 4, "no session", once the read was done: `--timeout` did not bound
    // the read of the directory).
    let planted = plant();
    for (words, what) in [
        (&["session", "list"][..], "reading the sessions"),
        (&["call", "version"], "finding the session"),
    ] {
        let out = sb.mur(&[&["devtools", "--timeout", "1"][..], words].concat());
        out.assert_code(2)
            .assert_stdout_is("")
            .assert_stderr_starts_with(&format!("error: {what} took longer than 1 ms\n"));
        assert!(!out.stderr.contains("has ended"), "{out}");
        assert!(
            planted.iter().all(|(path, _)| path.exists()),
            "{words:?}: left"
        );
    }
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
    // Its slot lock too: the kernel let go of the lock, the file stays.
    let slot_lock = mur_lockfile::lock_path(&lockfile);
    assert!(slot_lock.exists());
    let out = sb.mur(&["devtools", "session", "clean"]);
    out.assert_code(0)
        .assert_stderr_is("removed 1 stale entry and 1 file of an ended session\n");
    assert!(!lockfile.exists() && !slot_lock.exists());
    sb.mur(&["devtools", "session", "list"]).assert_code(4);
}

/// What a clean removed of each kind is said as an English list, the kinds it found none
/// of left out: it said "removed 0 stale entries and 1 malformed lockfile and 3 files of
/// ended sessions" (review 307, finding 21).
#[test]
fn clean_says_what_it_removed_as_one_list() {
    let (sb, sample) = Sandbox::with_app();
    let lockfile = sample.lockfile.clone();
    sample.kill();
    let bad = sb.plant_lockfile("/bad/App.csproj", "{ not json");
    let all = "1 stale entry, 1 malformed lockfile and 1 file of an ended session\n";
    sb.mur(&["devtools", "session", "clean", "--dry-run"])
        .assert_code(0)
        .assert_stderr_is(format!("would remove {all}"));
    sb.mur(&["devtools", "session", "clean"])
        .assert_code(0)
        .assert_stdout_is("")
        .assert_stderr_is(format!("removed {all}"));
    assert!(!lockfile.exists() && !bad.exists());
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
    // A space too: printed bare, the name pasted was two words (helper B, session 46).
    let spaced = sb.lockfile_dir().join("st ale.json");
    std::fs::copy(&plain, &spaced).expect("copy");
    let out = sb.mur(&["devtools", "session", "clean", "--dry-run"]);
    out.assert_code(0);
    let dir = sb.lockfile_dir().display().to_string();
    let mut lines: Vec<&str> = out.stdout.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            format!("$'{dir}/st\\xffale.json'"),
            format!("'{dir}/st ale.json'"),
            plain.display().to_string()
        ]
    );
    assert_eq!(out.stderr, "would remove 3 stale entries\n");
    // What a shell makes of each quoted word is the file's real name.
    for (word, file) in [(lines[0], &odd), (lines[1], &spaced)] {
        let echoed = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("printf %s {word}"))
            .output()
            .expect("bash");
        assert_eq!(echoed.stdout, file.as_os_str().as_bytes());
    }
}

#[test]
fn list_auto_adds_sessions_found_by_the_port_scan() {
    let sb = Sandbox::new();
    let (sample, port) = sb.start_sample_on_a_free_port(&sb.project("app"), &[]);
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

/// A session listed by `session list --auto` whose scan passed ports over (their probes'
/// time taken by listeners that accept and never answer) is said not to be the whole
/// list, in the words of the hint under a call's "no session" but `--endpoint`: the
/// listing said nothing, and a session among those ports was missing unsaid. One
/// probe in flight (`ulimit -n 33` leaves one descriptor to probes): 40 silent
/// listeners are more than the probe timeout has turns for.
#[cfg(unix)]
#[test]
fn list_auto_warns_of_the_ports_its_scan_passed_over() {
    let (sb, app) = Sandbox::with_app();
    // On ports no other test's listener takes: the scan meets these alone.
    let silent = silent_block(40, crate::host_discovery::handed_out());
    let port = |listener: &std::net::TcpListener| listener.local_addr().expect("addr").port();
    let range = format!("{}-{}", port(&silent[0]), port(&silent[39]));
    let list = format!("ulimit -n 33 && exec mur devtools --auto-range {range} session list");
    let out = mur_e2e::run(&mut sb.shell_command(&list));
    // Each port passed over took the connection of the check that it listens, not the
    // probe's.
    let passed_over = (silent.iter())
        .filter(|listener| {
            listener.set_nonblocking(true).expect("nonblocking");
            std::iter::from_fn(|| listener.accept().ok()).count() == 1
        })
        .count();
    out.assert_code(0)
        .assert_stdout_is(format!(
            "{}\n",
            serde_json::to_string(&app.lock).expect("json")
        ))
        .assert_stderr_is(format!(
            "warning: `--auto` scanned 127.0.0.1 ports {range} for devtools sessions; \
             {passed_over} of the 40 ports that took a connection were not probed: those \
             that accept a connection and never answer took the 1500 ms the probes have, at \
             least 100 ms each; `--auto-range LO-HI` scans fewer ports\n"
        ));
}

/// `session list --help` says what the listing above prints on stderr beside the sessions:
/// the ports `--auto`'s scan passed over, in a `warning:` that `-q` keeps. Its help said
/// only that `--auto` lists the sessions found, as if the list were whole.
#[test]
fn session_list_help_says_it_warns_of_the_ports_its_scan_passed_over() {
    let help = Sandbox::new().mur(&["devtools", "session", "list", "--help"]);
    help.assert_code(0);
    let text = help.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains(
            "the ports the scan passed over (listeners that took a connection and never \
             answered in the time the probes have) are counted on stderr, in a `warning:` even \
             with `-q`"
        ),
        "{help}"
    );
}

/// A stdio MCP server of a few lines: it answers `initialize`, lists one tool
/// (`hello`) and answers every call of it; it ends when its input does.
const MINI_SERVER: &str = r#"
from line_server import serve, text
serve("mini", lambda mid, params: text(mid, "hi"),
      tools=[{"name": "hello", "inputSchema": {"type": "object", "properties": {}}}])
"#;

/// The command of a bridge over [`MINI_SERVER`] (written into the sandbox), with
/// `args` after the script (which it ignores).
pub(crate) fn mini_server(sb: &Sandbox, args: &[&str]) -> Vec<String> {
    let script = crate::servers::line_server(sb, "mini_server.py", MINI_SERVER);
    let mut command = vec!["python3".to_owned(), "-u".to_owned()];
    command.push(script.to_str().expect("utf-8 path").to_owned());
    command.extend(args.iter().map(|a| (*a).to_owned()));
    command
}

/// `mur devtools bridge --project PROJECT [extra…] -- command…`, as a user starts one.
pub(crate) fn bridge(sb: &Sandbox, project: &Path, extra: &[&str], command: &[String]) -> Output {
    let mut cmd = sb.mur_command(&["devtools", "bridge", "--project"]);
    cmd.arg(project).args(extra).arg("--").args(command);
    mur_e2e::run(&mut cmd)
}

/// A bridge over [`MINI_SERVER`] for `project`, started (its pid killed on drop, if
/// it still runs then).
pub(crate) fn mini_bridge(
    sb: &Sandbox,
    project: &Path,
    extra: &[&str],
    args: &[&str],
) -> (Value, Adopted) {
    let out = bridge(sb, project, extra, &mini_server(sb, args));
    let line = out.assert_code(0).json();
    let pid = line["pid"].as_u64().expect("pid") as u32;
    (line, Adopted(pid))
}

/// Which of the files a session may leave beside the lockfile of `project` are there.
fn files_beside(sb: &Sandbox, project: &Path) -> Vec<PathBuf> {
    let lockfile = sb.lockfile_path(project);
    // As mur-bridge names a bridge's sidecar and log.
    ["bridge", "bridge.log", "lock"]
        .map(|ext| lockfile.with_extension(ext))
        .into_iter()
        .filter(|p| p.exists())
        .collect()
}

#[test]
fn clean_removes_what_ended_sessions_left_and_never_a_live_or_starting_ones() {
    let sb = Sandbox::new();
    // A bridge that runs, one stopped, and a start that failed.
    let live = sb.project("live");
    let (_line, _pid) = mini_bridge(&sb, &live, &[], &[]);
    let stopped = sb.project("stopped");
    let (_, _stopped_pid) = mini_bridge(&sb, &stopped, &[], &[]);
    let stopped_arg = stopped.to_str().expect("utf-8");
    sb.mur(&["devtools", "--project", stopped_arg, "bridge", "stop"])
        .assert_code(0);
    let failed = sb.project("failed");
    bridge(&sb, &failed, &[], &["/nonexistent/mcp-server".to_owned()]).assert_code(1);
    // A session still starting: it holds its slot (this test process does) and has
    // written its log, but no lockfile yet.
    let starting = sb.project("starting");
    let starting_lockfile = sb.lockfile_path(&starting);
    let slot = mur_lockfile::SlotLock::try_acquire(&starting_lockfile)
        .expect("lock")
        .expect("a free slot");
    std::fs::write(starting_lockfile.with_extension("bridge.log"), "starting\n").expect("log");

    let mut leftovers: Vec<PathBuf> = [&stopped, &failed]
        .into_iter()
        .flat_map(|p| files_beside(&sb, p))
        .collect();
    leftovers.sort();
    for (project, at_least) in [(&stopped, 2), (&failed, 2), (&live, 3), (&starting, 2)] {
        let there = files_beside(&sb, project);
        assert!(there.len() >= at_least, "{project:?}: {there:?}");
    }
    let kept: Vec<PathBuf> = [&live, &starting]
        .into_iter()
        .flat_map(|p| files_beside(&sb, p))
        .collect();

    let dry = sb.mur(&["devtools", "session", "clean", "--dry-run"]);
    dry.assert_code(0);
    let mut listed: Vec<PathBuf> = dry.stdout.lines().map(PathBuf::from).collect();
    listed.sort();
    assert_eq!(listed, leftovers, "{dry}");
    assert_eq!(
        dry.stderr,
        format!("would remove {} files of ended sessions\n", leftovers.len())
    );
    assert!(
        leftovers.iter().all(|p| p.exists()),
        "--dry-run touches nothing"
    );

    let out = sb.mur(&["devtools", "session", "clean"]);
    out.assert_code(0)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "removed {} files of ended sessions\n",
            leftovers.len()
        ));
    let left: Vec<&PathBuf> = leftovers.iter().filter(|p| p.exists()).collect();
    assert!(left.is_empty(), "{left:?}");
    let gone: Vec<&PathBuf> = kept.iter().filter(|p| !p.exists()).collect();
    assert!(
        gone.is_empty(),
        "a live or starting session's files: {gone:?}"
    );
    let live_arg = live.to_str().expect("utf-8");
    sb.mur(&["devtools", "--project", live_arg, "call", "hello"])
        .assert_code(0);
    // Once the slot is free, what the start left is an ended session's.
    drop(slot);
    sb.mur(&["devtools", "session", "clean"])
        .assert_code(0)
        .assert_stderr_is("removed 2 files of ended sessions\n");
    assert_eq!(files_beside(&sb, &starting), Vec::<PathBuf>::new());
    // Nothing left to clear: nothing said of it.
    sb.mur(&["devtools", "session", "clean"])
        .assert_code(0)
        .assert_stderr_is("removed 0 stale entries\n");
}

#[test]
fn list_pretty_names_the_server_each_bridge_runs_escaped() {
    let sb = Sandbox::new();
    let project = sb.project("bridged");
    let (line, _pid) = mini_bridge(&sb, &project, &[], &["--name", "red\u{1b}[31m text"]);
    let app = sb.start_sample(&sb.project("app"));
    let table = sb.mur(&["devtools", "session", "list", "--pretty"]);
    table.assert_code(0);
    let mut lines = table.stdout.lines();
    let header: Vec<&str> = lines
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert_eq!(
        header,
        [
            "PROJECT",
            "COMMAND",
            "TRANSPORT",
            "ENDPOINT",
            "PID",
            "STARTED",
            "LOG"
        ],
        "{table}"
    );
    let script = sb.root().join("mini_server.py");
    let command = format!("python3 -u {} --name 'red\\x1b[31m text'", script.display());
    let rows: Vec<&str> = lines.collect();
    let bridged = rows
        .iter()
        .find(|r| r.starts_with(&sb.canonical_project(&project)))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(bridged.contains(&command), "{table}");
    assert!(
        bridged.contains(line["log"].as_str().expect("log")),
        "{table}"
    );
    assert!(!table.stdout.contains('\u{1b}'), "{table}");
    // The app's session runs no bridged server: its cells are empty.
    let app_row = rows
        .iter()
        .find(|r| r.starts_with(&app.lock.project))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(!app_row.contains("python3"), "{table}");
}

/// What `session list` shows of a bridge and what `bridge stop` signals come from its
/// sidecar only as mur trusts it for the bridge's secret (mur_discovery::read_sidecar):
/// the user's own, open to no one else. One others may read, or another user's, was
/// taken as the bridge's (its log and command listed, its pid signalled).
#[test]
fn a_sidecar_others_may_read_or_another_users_names_no_bridge_to_list_or_stop() {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    let sb = Sandbox::new();
    let project = sb.project("bridged");
    let (started, _pid) = mini_bridge(&sb, &project, &[], &[]);
    let sidecar = sb.lockfile_path(&project).with_extension("bridge");
    let project_arg = project.to_str().expect("utf-8");
    let chmod = |mode| {
        std::fs::set_permissions(&sidecar, std::fs::Permissions::from_mode(mode)).expect("chmod")
    };
    let refused = format!(
        "error: the session of `{}` (pid {}) is no bridge `bridge stop` may signal: it signals \
         only a bridge whose sidecar it trusts\n",
        sb.canonical_project(&project),
        started["pid"]
    );
    let stop = || sb.mur(&["devtools", "--project", project_arg, "bridge", "stop"]);
    let assert_no_bridge = |how: &str, why: &str| {
        let list = sb.mur(&["devtools", "session", "list"]);
        let line = list.assert_code(0).json();
        assert_eq!(
            (&line["log"], &line["command"]),
            (&Value::Null, &Value::Null),
            "{how}: {list}"
        );
        assert_eq!(line["pid"], started["pid"], "{how}: {list}");
        // Saying why nothing was signalled, and how to stop one's own bridge.
        stop().assert_code(1).assert_stderr_is(format!(
            "{refused}hint: its sidecar is not trusted, so nothing is signalled: `{}` is {why}\n\
             hint: if the bridge is yours, stop it with `kill {}`; `session clean` then removes \
             the sidecar\n",
            sidecar.display(),
            started["pid"]
        ));
    };
    chmod(0o644);
    assert_no_bridge(
        "readable by others",
        "open to group or others (mode 644), so its secret is no secret",
    );
    // Another user's: only root can give a file away to make one.
    if sidecar.metadata().is_ok_and(|m| m.uid() == 0) {
        chmod(0o600);
        std::os::unix::fs::chown(&sidecar, Some(65534), None).expect("chown");
        assert_no_bridge("another user's", "owned by uid 65534, not by you (uid 0)");
        std::os::unix::fs::chown(&sidecar, Some(0), None).expect("chown");
    }
    // With no sidecar, but its log beside: maybe a bridge, not signalled either (helper
    // 504: it was taken for an app's, "stop an app's session in the app").
    let away = sidecar.with_extension("away");
    std::fs::rename(&sidecar, &away).expect("move the sidecar away");
    stop().assert_code(1).assert_stderr_is(format!(
        "{refused}hint: it has no sidecar (`{}`), though a bridge's log is beside its \
         lockfile: if it is a bridge, stop it with `kill {pid}`; if it is an app's session, \
         stop it in the app (Ctrl+C where it runs)\n",
        sidecar.display(),
        pid = started["pid"]
    ));
    std::fs::rename(&away, &sidecar).expect("put the sidecar back");
    // The user's own again, open to no one else: the bridge's, listed and stopped.
    chmod(0o600);
    let list = sb.mur(&["devtools", "session", "list"]);
    assert_eq!(list.assert_code(0).json()["log"], started["log"], "{list}");
    stop().assert_code(0);
}

/// Without `XDG_RUNTIME_DIR`, `session list` lists the sessions announced in
/// `${TMPDIR}/reactor-devtools-<uid>` (by a writer that knows nothing of the login's
/// runtime directory) beside those in the login's, and `session clean` removes what
/// ended sessions left in each.
#[cfg(unix)]
#[test]
fn without_xdg_runtime_dir_list_and_clean_cover_the_shared_directory_and_the_login_s() {
    let sb = Sandbox::new();
    let scrubbed = crate::host_discovery::NoRuntimeVar::new(&sb);
    let shared = scrubbed.shared();
    let older = sb.project("older");
    let (_older_sample, older_lock) = scrubbed.start_sample(&older, &shared);
    let login = scrubbed.log_in();
    let (_newer_sample, newer_lock) = scrubbed.start_sample(&sb.project("newer"), &login);

    let out = scrubbed.mur(&["devtools", "session", "list"]);
    out.assert_code(0);
    let projects: Vec<&str> = out
        .json_lines()
        .iter()
        .map(|line| line["project"].as_str().expect("a project"))
        .map(|project| {
            if project == older_lock.project {
                "older"
            } else {
                "newer"
            }
        })
        .collect();
    assert_eq!(projects, ["newer", "older"], "by project\n{out}");
    let older_path = older.to_str().expect("utf-8");
    let out = scrubbed.mur(&["devtools", "session", "list", "--project", older_path]);
    out.assert_code(0);
    assert_eq!(out.json_lines()[0]["pid"], older_lock.pid, "{out}");

    // An ended session in each: its lockfile and its slot lock.
    let ended = |registry: &mur_lockfile::Registry, name: &str| {
        let lock = mur_lockfile::Lockfile::http(
            free_port(),
            dead_pid(),
            format!("/gone/{name}/App.csproj"),
            "t".into(),
        );
        let lockfile = registry.write(&lock).expect("a stale lockfile");
        let slot = mur_lockfile::lock_path(&lockfile);
        std::fs::write(&slot, "").expect("its slot lock");
        [lockfile, slot]
    };
    let left: Vec<PathBuf> = [ended(&shared, "a"), ended(&login, "b")].concat();
    let out = scrubbed.mur(&["devtools", "session", "clean"]);
    out.assert_code(0)
        .assert_stderr_is("removed 2 stale entries and 2 files of ended sessions\n");
    for path in &left {
        assert!(!path.exists(), "`{}` is left\n{out}", path.display());
    }
    assert!(
        shared.path_for(&older_lock.project).exists()
            && login.path_for(&newer_lock.project).exists(),
        "the live sessions' lockfiles stay"
    );
}

/// Without `XDG_RUNTIME_DIR`, `session list` that finds no session names every
/// directory it searched (the login's and the shared one, there), as a call's
/// no-session hint does, with `--project` too: it named the login's alone.
#[cfg(unix)]
#[test]
fn without_xdg_runtime_dir_list_finding_none_names_every_directory_searched() {
    let sb = Sandbox::new();
    let scrubbed = crate::host_discovery::NoRuntimeVar::new(&sb);
    let login = scrubbed.log_in();
    // The shared directory is searched once it is there (an older writer made it).
    let shared = scrubbed.shared();
    shared.ensure_dir().expect("the shared directory");
    let searched = format!(
        "`{}` or `{}`",
        login.dir().display(),
        shared.dir().display()
    );
    let out = scrubbed.mur(&["devtools", "session", "list"]);
    out.assert_code(4)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: no running devtools session found\n\
         hint: sessions announce themselves in {searched}\n"
        ));
    let project = sb.project("app");
    let canonical = sb.canonical_project(&project);
    let project = project.to_str().expect("utf-8");
    let out = scrubbed.mur(&["devtools", "session", "list", "--project", project]);
    out.assert_code(4)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: no live devtools session for project `{canonical}`\n\
         hint: sessions announce themselves in {searched}\n"
        ));
}

/// A lockfile whose process runs but whose port another program has (an SSH server's
/// banner: no HTTP at all) is skipped as not a session, with a word, beside a live
/// session that is used: it was taken for a stopped session, and every call without
/// `--project` exited 1 ("2 devtools sessions found, 1 of them not answering"). And
/// `session list` says every lockfile it skips, as a call does: it said only "no running
/// devtools session found" of one off loopback (the warning took `-v`).
#[test]
fn a_port_that_answers_no_http_is_another_programs_and_session_list_says_what_it_skips() {
    let sb = Sandbox::new();
    let ssh = Stub::serve(|_| Reply::Raw(b"SSH-2.0-OpenSSH_9.6\r\n".to_vec()));
    let pid = std::process::id();
    let banner = sb.plant_http_lockfile("/ssh/App.csproj", pid, ssh.port());
    let mut far = mur_lockfile::Lockfile::http(80, pid, "/far/App.csproj".into(), "b".into());
    far.endpoint = "http://10.255.255.1:80/mcp".into();
    let far_path = sb.plant_lockfile(&far.project, &serde_json::to_string(&far).expect("json"));
    let mut skipped = [
        format!(
            "warning: skipping lockfile `{}`: pid {pid} runs, but `{}` answered with something \
             that is not HTTP",
            banner.display(),
            ssh.endpoint()
        ),
        format!(
            "warning: skipping lockfile `{}`: pid {pid} runs, but `{}` is not a loopback \
             address (only 127.0.0.0/8, ::1 and localhost are contacted)",
            far_path.display(),
            far.endpoint
        ),
    ];
    skipped.sort();
    let out = sb.mur(&["devtools", "session", "list"]);
    out.assert_code(4).assert_stdout_is("");
    let mut lines: Vec<&str> = out.stderr.lines().collect();
    let error = lines.split_off(2);
    lines.sort_unstable();
    assert_eq!(lines, skipped, "{out}");
    assert_eq!(
        error,
        [
            "error: no running devtools session found".to_owned(),
            format!(
                "hint: sessions announce themselves in `{}`",
                sb.lockfile_dir().display()
            )
        ],
        "{out}"
    );

    let sample = sb.start_sample(&sb.project("live"));
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_code(0);
    out.assert_stderr_contains(&skipped[0]);
    let listed = sb.mur(&["devtools", "session", "list"]);
    listed.assert_code(0);
    assert_eq!(listed.json_lines().len(), 1, "{listed}");
    assert_eq!(listed.json_lines()[0]["pid"], sample.pid(), "{listed}");
}

/// Hundreds of lockfiles whose processes run are probed a few at a time: all at once,
/// past `ulimit -n` each probe whose connection could not be made for want of a
/// descriptor was said to have "refused the connection".
#[cfg(unix)]
#[test]
fn many_lockfiles_are_probed_a_few_at_a_time_within_the_descriptor_limit() {
    let sb = Sandbox::new();
    let web = Stub::plain_http();
    let pid = std::process::id();
    let mut skipped: Vec<String> = (0..300)
        .map(|n| {
            let path = sb.plant_http_lockfile(&format!("/web{n}/App.csproj"), pid, web.port());
            format!(
                "warning: skipping lockfile `{}`: pid {pid} runs, but `{}` did not answer the \
                 devtools probe",
                path.display(),
                web.endpoint()
            )
        })
        .collect();
    skipped.sort();
    let out = mur_e2e::run(&mut sb.shell_command("ulimit -n 64 && exec mur devtools session list"));
    out.assert_code(4).assert_stdout_is("");
    let mut lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 302, "{out}");
    lines.truncate(300);
    lines.sort_unstable();
    assert_eq!(lines, skipped);
}

/// `session clean` removes what its dry run and the notices promise, and only that: a
/// directory under a lockfile's name when it is empty (the notice promised it, the dry run
/// listed it, and the clean said "Is a directory", made a slot lock for it and exited 0),
/// never one with something in it (refused, as nothing mur removes); and the temporary
/// file of a session's write whose writer is gone (killed mid-write: it stayed for ever),
/// never one a running process is writing.
#[cfg(unix)]
#[test]
fn clean_removes_an_empty_directory_and_abandoned_temporary_files_as_promised() {
    let sb = Sandbox::new();
    let dir = sb.lockfile_dir();
    sb.registry().ensure_dir().expect("the lockfile directory");
    let empty = dir.join("f000000000000007.json");
    std::fs::create_dir(&empty).expect("mkdir");
    let full = dir.join("f000000000000008.json");
    std::fs::create_dir(&full).expect("mkdir");
    std::fs::write(full.join("notes.txt"), "mine").expect("write");
    let abandoned = dir.join(format!(".a941a538e57c9f96.json.{}.0.tmp", dead_pid()));
    let writing = dir.join(format!(
        ".a941a538e57c9f96.json.{}.0.tmp",
        std::process::id()
    ));
    for temp in [&abandoned, &writing] {
        std::fs::write(temp, "{\"schema\"").expect("write");
    }
    let refused = format!(
        "warning: refusing `{}`: a directory with files in it, not a lockfile (mur removes no \
         directory that is not empty)\n",
        full.display()
    );
    let list = sb.mur(&["devtools", "session", "list"]);
    list.assert_code(4).assert_stderr_starts_with(&format!(
        "warning: skipping malformed lockfile `{}`: a directory, not a file (`mur devtools \
         session clean` removes it)\n{refused}",
        empty.display()
    ));

    let dry = sb.mur(&["devtools", "session", "clean", "--dry-run"]);
    dry.assert_code(0)
        .assert_stdout_is(format!("{}\n{}\n", empty.display(), abandoned.display()))
        .assert_stderr_is(format!(
            "{refused}would remove 1 malformed lockfile and 1 file of an ended session\n"
        ));
    let out = sb.mur(&["devtools", "session", "clean"]);
    out.assert_code(0)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "{refused}removed 1 malformed lockfile and 1 file of an ended session\n"
        ));
    assert!(!empty.exists() && !abandoned.exists());
    assert!(
        !mur_lockfile::lock_path(&empty).exists(),
        "no slot lock is made for what is no lockfile"
    );
    assert!(full.join("notes.txt").exists() && writing.exists());
}

/// A clean that could not remove something says so and exits 7 (mur failed at its own
/// directory), after the count of what it did remove: it exited 0, as a clean one. What
/// it could not remove is said by what stood in the way: the slot lock, here a directory
/// with files in it, which mur removes no more than any such directory (the line blamed
/// the lockfile: "cannot remove `<hash>.json`: Is a directory"). The dry run leaves it out.
#[cfg(unix)]
#[test]
fn a_clean_that_could_not_remove_a_file_exits_7() {
    let sb = Sandbox::new();
    let malformed = sb.plant_lockfile("/p/App.csproj", "{");
    // Its slot lock cannot be taken: the lockfile is not removed without it.
    let lock = mur_lockfile::lock_path(&malformed);
    std::fs::create_dir(&lock).expect("mkdir");
    std::fs::write(lock.join("notes.txt"), "mine").expect("write");
    let dead = sb.plant_http_lockfile("/gone/App.csproj", dead_pid(), free_port());
    let unremoved = format!(
        "warning: slot lock `{}` is a directory with files in it, not a regular file: the \
         lockfile `{}` beside it cannot be removed without it (mur removes no directory that is \
         not empty)\n",
        lock.display(),
        malformed.display()
    );
    sb.mur(&["devtools", "session", "clean", "--dry-run"])
        .assert_code(0)
        .assert_stdout_is(format!("{}\n", dead.display()))
        .assert_stderr_is(format!("{unremoved}would remove 1 stale entry\n"));
    let out = sb.mur(&["devtools", "session", "clean"]);
    out.assert_code(7)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "{unremoved}\
             removed 1 stale entry\n\
             error: 1 of the files to remove could not be removed (each is named above)\n",
        ));
    assert!(malformed.exists() && !dead.exists() && lock.join("notes.txt").exists());
}

/// A slot lock that is none — a FIFO, a link to nowhere, an empty directory — is named
/// with what it is by a reader, which leaves the stale lockfile beside it (it was blamed:
/// "cannot remove `<hash>.json`: Is a directory", and `session clean` could not remove
/// it either); `session clean` removes both, and one left alone beside no lockfile (no
/// session of its project could start while it was there).
#[cfg(unix)]
#[test]
fn a_slot_lock_that_is_none_is_named_and_cleaned_away() {
    let sb = Sandbox::new();
    let lone = sb.lockfile_dir().join("00000000000000aa.lock");
    let plant = |what: &str, at: &Path| match what {
        "a FIFO" => mur_e2e::mkfifo(at),
        "an empty directory" => std::fs::create_dir(at).expect("mkdir"),
        _ => std::os::unix::fs::symlink(at.with_extension("nowhere"), at).expect("link"),
    };
    for what in ["a FIFO", "an empty directory", "a symbolic link"] {
        let stale = sb.plant_http_lockfile("/gone/App.csproj", dead_pid(), free_port());
        let lock = mur_lockfile::lock_path(&stale);
        plant(what, &lock);
        plant(what, &lone);
        let what = match what {
            "a symbolic link" => format!(
                "a symbolic link (to `{}`, which is not there)",
                lock.with_extension("nowhere").display()
            ),
            what => what.to_owned(),
        };
        let list = sb.mur(&["devtools", "session", "list"]);
        list.assert_code(4).assert_stderr_starts_with(&format!(
            "warning: slot lock `{}` is {what}, not a regular file: the lockfile `{}` beside it \
             is left (`mur devtools session clean` removes both)\n\
             error: no running devtools session found\n",
            lock.display(),
            stale.display()
        ));
        assert!(stale.exists());
        // The stale lockfile, then what ended sessions left, by lockfile: its slot lock
        // as any stale lockfile's, and the one alone.
        let mut left = [&lock, &lone];
        left.sort();
        sb.mur(&["devtools", "session", "clean", "--dry-run"])
            .assert_code(0)
            .assert_stdout_is(format!(
                "{}\n{}\n{}\n",
                stale.display(),
                left[0].display(),
                left[1].display()
            ))
            .assert_stderr_is("would remove 1 stale entry and 2 files of ended sessions\n");
        sb.mur(&["devtools", "session", "clean"])
            .assert_code(0)
            .assert_stdout_is("")
            .assert_stderr_is("removed 1 stale entry and 2 files of ended sessions\n");
        for gone in [&stale, &lock, &lone] {
            assert!(std::fs::symlink_metadata(gone).is_err(), "{what}: {gone:?}");
        }
    }
}

/// A live session's lockfile copied under another name (a backup, `cp`) is one session:
/// listed once, from the file named for its project, and `--project` picks it; the copy
/// is said in one line. It was listed twice, and `--project` could choose neither. The
/// line, said on every command while the session runs, says how to remove the copy,
/// and the command it gives does (it said only that the copy was skipped).
#[test]
fn a_copied_lockfile_is_one_session_listed_once_and_picked_by_project() {
    let (sb, app) = Sandbox::with_app();
    let copy = sb.lockfile_dir().join("copy.json");
    std::fs::copy(&app.lockfile, &copy).expect("copy");
    let rm = format!("rm {}", copy.display());
    let skipped = format!(
        "warning: skipping lockfile `{}`: a copy of `{}`, the lockfile of the same session (pid \
         {} at `{}`); `session clean` leaves it while that session runs: remove it with \
         `{rm}`\n",
        copy.display(),
        app.lockfile.display(),
        app.pid(),
        app.endpoint()
    );
    let project = app.project.to_str().expect("utf-8");
    for args in [
        &["devtools", "session", "list"][..],
        &["devtools", "session", "list", "--project", project],
    ] {
        sb.mur(args)
            .assert_code(0)
            .assert_stdout_is(format!(
                "{}\n",
                serde_json::to_string(&app.lock).expect("json")
            ))
            .assert_stderr_is(&skipped);
    }
    for args in [
        &["devtools", "call", "version"][..],
        &["devtools", "--project", project, "call", "version"],
    ] {
        let out = sb.mur(args);
        out.assert_answered_by(app.pid()).assert_stderr_is(&skipped);
    }
    // Neither file is the clean's: the session runs.
    sb.mur(&["devtools", "session", "clean"])
        .assert_code(0)
        .assert_stderr_is(format!("{skipped}removed 0 stale entries\n"));
    assert!(copy.exists() && app.lockfile.exists());
    // The command said, run as said: the copy is gone, and nothing more is said.
    mur_e2e::run(&mut sb.shell_command(&rm)).assert_code(0);
    assert!(!copy.exists() && app.lockfile.exists());
    sb.mur(&["devtools", "session", "list"])
        .assert_code(0)
        .assert_stderr_is("");
}

// Helper 414 (review 408 finding 8): a signal during a command that calls no tool.

/// Ctrl-C (or SIGTERM) while `session list` or `session clean` waits on a session's
/// probe says the command was stopped in its work: it said "before the request was
/// sent: `session list` did not run", a call's line, of a command that sends no call
/// and had started.
#[test]
fn a_signal_during_session_list_or_clean_says_it_stopped_the_command_not_a_call() {
    let sb = Sandbox::new();
    // A live pid (this test's) whose endpoint takes the probe and never answers it.
    let hung = Stub::silent();
    sb.plant_http_lockfile("/hung/App.csproj", std::process::id(), hung.port());
    for (command, signal, code) in [("list", "INT", 130), ("clean", "TERM", 143)] {
        let log = sb.root().join(format!("{command}.stderr"));
        let file = std::fs::File::create(&log).expect("stderr file");
        let mut mur = sb.mur_command(&["devtools", "session", command]);
        mur.stdout(std::process::Stdio::null()).stderr(file);
        let probes = hung.requests().len();
        let process = mur_e2e::Process::spawn(&mut mur);
        mur_e2e::wait_until("the probe", || {
            (hung.requests().len() > probes).then_some(())
        });
        process.signal(signal);
        let status = process.wait_status();
        let stderr = std::fs::read_to_string(&log).expect("stderr");
        assert_eq!(
            (status.code(), stderr.as_str()),
            (
                Some(code),
                format!(
                    "error: interrupted by SIG{signal} during `session {command}`, which calls \
                     no tool\n"
                )
                .as_str()
            )
        );
    }
}
