//! Endpoint discovery end to end: real `mur` against real `mur-sample`
//! sessions and planted lockfiles, each test in its own sandbox.

use std::io::Write as _;
use std::path::Path;

use mur_e2e::{
    Output, Sandbox, Stub, dead_pid, free_port, mkfifo, refusing_port, session_rows,
    several_sessions_error, signal, silent_block, silent_listener,
};

/// `mur devtools --project PROJECT call version`.
fn call_version_for(sb: &Sandbox, project: &Path) -> Output {
    let project = project.to_str().expect("utf-8");
    sb.mur(&["devtools", "--project", project, "call", "version"])
}

/// The hint says what each way in finds: `--auto` a devtools session that left no
/// lockfile, `--endpoint` any MCP server (it offered `--auto` bare, which cannot find a
/// third-party server: a user audit).
#[test]
fn no_session_exits_4_and_says_how_to_start_one() {
    let sb = Sandbox::new();
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_code(4).assert_stdout_is("");
    out.assert_stderr_is(format!(
        "error: no running devtools session found\n{}",
        start_the_app(&sb.registry().searched())
    ));
}

#[test]
fn the_one_live_session_is_found_with_no_flags() {
    let (sb, sample) = Sandbox::with_app();
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_quiet_success().assert_answered_by(sample.pid());
}

#[test]
fn several_sessions_are_ambiguous_exit_1_listing_each() {
    let (sb, sessions) = Sandbox::with_apps(["a", "b"]);
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_code(1).assert_stdout_is("");
    out.assert_stderr_starts_with("error: 2 live devtools sessions found");
    for s in &sessions {
        out.assert_stderr_contains(&format!("{}  {}", s.lock.project, s.endpoint()));
    }
    out.assert_stderr_contains("hint: choose one with `--project PATH` or `--endpoint URL`");
}

/// Among several sessions the hint is the command again, whole, to paste, with
/// `--project` of the first listed (host options typed before `devtools` after it, where
/// they work too), and pasted it reaches that session.
#[test]
fn several_sessions_are_told_the_command_again_to_paste() {
    let (sb, [a, b]) = Sandbox::with_apps(["a", "b"]);
    let out = sb.mur(&["--pretty", "devtools", "call", "version", "--args", "{}"]);
    out.assert_code(1).assert_stdout_is("");
    out.assert_stderr_is(several_sessions_error(
        &[&a, &b],
        "--pretty call version --args '{}'",
    ));
    let pasted = sb.mur(&[
        "devtools",
        "--project",
        a.lock.project.as_str(),
        "--pretty",
        "call",
        "version",
        "--args",
        "{}",
    ]);
    pasted.assert_answered_by(a.pid());
}

#[test]
fn project_picks_one_of_several_sessions() {
    let (sb, [_a, b]) = Sandbox::with_apps(["a", "b"]);
    let out = call_version_for(&sb, &sb.project("b"));
    out.assert_answered_by(b.pid());
    // A project path relative to the working directory (the sandbox root) works too.
    let out = sb.mur(&["devtools", "call", "version", "--project", "b/App.csproj"]);
    out.assert_answered_by(b.pid());
}

#[test]
fn a_stopped_session_beside_a_live_one_is_not_passed_over_and_project_does_not_wait_for_it() {
    let (sb, [a, b]) = Sandbox::with_apps(["a", "b"]);
    b.signal("STOP");
    let port = b.lock.port;
    // `b` is not probed when `--project` names `a`, so not waited for: no connection
    // waits in its listener's queue, where a probe's would (it was told by a bound of
    // 1000 ms, shorter than the probe's 1.5 s, which a loaded machine could miss).
    let picked = sb.mur(&["devtools", "--project", &a.lock.project, "call", "version"]);
    assert_eq!(unaccepted(port), 0, "`--project a` reached the stopped `b`");
    let out = sb.mur(&["devtools", "call", "version"]);
    assert_ne!(
        unaccepted(port),
        0,
        "the call with no `--project` probed `b`"
    );
    b.signal("CONT");
    out.assert_code(1).assert_stdout_is("");
    let width = a.lock.project.len().max(b.lock.project.len());
    assert_eq!(
        out.stderr,
        format!(
            "error: 2 devtools sessions found, 1 of them not answering; which one is meant?\n\
             \x20 {:width$}  {}  (pid {})\n\
             \x20 {:width$}  {}  (pid {}; runs but did not answer the probe within 1500 ms)\n\
             hint: choose one with `--project PATH` or `--endpoint URL`; for the first: \
             `mur devtools --project {} call version`\n\
             hint: is it stopped in a debugger or overloaded? `kill -CONT {}` resumes a stopped process\n",
            a.lock.project,
            a.endpoint(),
            a.pid(),
            b.lock.project,
            b.endpoint(),
            b.pid(),
            a.lock.project,
            b.pid(),
        )
    );
    picked.assert_answered_by(a.pid());
}

/// How many connections wait unaccepted in the queue of the loopback listener on
/// `port` (a stopped session accepts none): `/proc/net/tcp`'s receive queue of a
/// listening socket is its accept queue.
fn unaccepted(port: u16) -> usize {
    let table = std::fs::read_to_string("/proc/net/tcp").expect("/proc/net/tcp");
    let local = format!("0100007F:{port:04X}");
    let listening = table.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.get(1) == Some(&local.as_str()) && fields.get(3) == Some(&"0A"))
            .then(|| fields[4].to_owned())
    });
    let queues = listening.unwrap_or_else(|| panic!("no listener on 127.0.0.1:{port}"));
    let (_, received) = queues.split_once(':').expect("tx_queue:rx_queue");
    usize::from_str_radix(received, 16).expect("a hex count")
}

#[test]
fn a_word_that_is_no_installed_verb_among_several_sessions_asks_which_session() {
    let (sb, [a, _b]) = Sandbox::with_apps(["a", "b"]);
    let out = sb.mur(&["devtools", "export-todos"]);
    out.assert_code(1);
    out.assert_stderr_starts_with("error: 2 live devtools sessions found; which one is meant?\n");
    let hints = out.stderr_lines("hint:");
    assert_eq!(
        hints,
        [
            "hint: `export-todos` is not an installed verb; a tool's verb is looked up in the session chosen".to_owned(),
            format!(
                "hint: choose one with `--project PATH` or `--endpoint URL`; for the first: \
                 `mur devtools --project {} export-todos`",
                a.lock.project
            ),
        ],
        "{out}"
    );
    // Chosen, the session's tool `exportTodos` is the verb.
    let project = sb.project("a");
    let chosen = sb.mur(&[
        "devtools",
        "--project",
        project.to_str().expect("utf-8"),
        "export-todos",
    ]);
    chosen.assert_code(0);
}

/// A near miss of mur's own command is a typo whatever the sessions: said first, as with
/// one session or none; a word near nothing is recorded as a verb asked for (`unknown`).
#[test]
fn a_typo_among_several_sessions_is_said_to_be_one() {
    let (sb, _sessions) = Sandbox::with_apps(["a", "b"]);
    let typo = sb.mur(&["devtools", "sesion", "list"]);
    typo.assert_code(1);
    typo.assert_stderr_starts_with("error: unknown verb `sesion`\n");
    assert_eq!(
        typo.stderr_lines("hint:")[0],
        "hint: did you mean `session`?",
        "{typo}"
    );
    sb.mur(&["devtools", "export-todos"]).assert_code(1);
    let text = std::fs::read_to_string(sb.usage_log()).expect("usage log");
    let kinds: Vec<(String, String)> = text
        .lines()
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).expect("a record");
            let field = |key: &str| record[key].as_str().unwrap_or_default().to_owned();
            (field("verb"), field("kind"))
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("sesion".to_owned(), "unknown".to_owned()),
            ("export-todos".to_owned(), "unknown".to_owned())
        ],
        "{text}"
    );
}

/// `--project` naming a file no session is of, while sessions of other projects run:
/// they are listed, the one with the same file name first as the likely meant.
#[test]
fn a_project_without_a_session_lists_the_live_ones_and_the_likely_one() {
    let sb = Sandbox::new();
    let a = sb.start_sample(&sb.project("a"));
    let other = sb.file("b/Other.csproj", "");
    let b = sb.start_sample(&other);
    // No file there: a slip (a project file that exists is no slip for another).
    let typed = sb.root().join("Other.csproj");
    let out = call_version_for(&sb, &typed);
    out.assert_code(4).assert_stdout_is("");
    let mut listed = [&a, &b];
    listed.sort_by(|x, y| x.lock.project.cmp(&y.lock.project));
    out.assert_stderr_is(other_projects(&typed.display().to_string(), &listed, &b));
}

/// The error for `--project TYPED` while only `sessions` run (in mur's order), `meant`
/// the one a hint names; not also "these sessions are of other projects", as `meant` is
/// the one likely meant (the others are there to choose from).
fn other_projects(typed: &str, sessions: &[&mur_e2e::Session], meant: &mur_e2e::Session) -> String {
    let others = match sessions.len() {
        1 => "",
        _ => "hint: or choose another of those listed with `--project PATH`\n",
    };
    format!(
        "error: no live devtools session for project `{typed}`\n{}\
         hint: did you mean `--project {}`?\n{others}",
        session_rows(sessions),
        meant.lock.project,
    )
}

/// `--project` naming a file that is not there, of the name of a live session's
/// project file but in no place near it: no "did you mean" that one, only the list.
#[test]
fn a_file_name_alone_is_no_sign_of_the_project_meant() {
    let sb = Sandbox::new();
    let a = sb.start_sample(&sb.project("a"));
    let out = call_version_for(&sb, Path::new("/nonexistent/App.csproj"));
    out.assert_code(4).assert_stdout_is("");
    out.assert_stderr_is(format!(
        "error: no live devtools session for project `/nonexistent/App.csproj`\n{}\
         hint: these sessions are of other projects: choose one with `--project PATH`\n",
        session_rows(&[&a]),
    ));
}

/// `--project` naming the folder a session's project file is in picks that session, as
/// `dotnet run --project FOLDER` takes the project file in FOLDER (it exited 4: "`…/a` is
/// a folder; a project is named by its file", naming the one it plainly meant); `session
/// list --project FOLDER` lists it. A project deeper down is not the folder's: offered,
/// not chosen.
#[test]
fn a_folder_names_the_project_directly_in_it() {
    let sb = Sandbox::new();
    let a = sb.start_sample(&sb.project("a"));
    let b = sb.start_sample(&sb.file("b/Other.csproj", ""));
    let dir = sb.dir("a");
    call_version_for(&sb, &dir).assert_answered_by(a.pid());
    let folder = dir.to_str().expect("utf-8");
    let out = sb.mur(&["devtools", "--project", folder, "session", "list"]);
    out.assert_code(0);
    assert_eq!(
        out.json_lines(),
        [serde_json::to_value(&a.lock).expect("lock json")]
    );
    // A folder holding a project of its own, stopped, and a live one deeper down: that
    // one is only the one likely meant (reviewer RV1 F3), never driven unasked.
    sb.project("repo");
    let h = sb.start_sample(&sb.file("repo/tools/H/H.csproj", ""));
    let repo = sb.canonical_project(&sb.dir("repo"));
    let out = call_version_for(&sb, &sb.dir("repo"));
    out.assert_code(4).assert_stdout_is("");
    out.assert_stderr_is(other_projects(&repo, &[&a, &b, &h], &h));
}

/// A folder holding two live projects at the same depth (`w/a/App.csproj`,
/// `w/b/App.csproj`), another project's session running elsewhere. Run in that folder,
/// a call with no `--project` is ambiguous as anywhere (exit 1, every session listed:
/// the folder a command runs in picks none). `--project .` (the folder) names neither:
/// which one is meant is asked (exit 1), the two in it listed, the command again with the
/// first one's file, which answers pasted. It said "no live devtools session for project
/// `…/w`", "start the app" and "the sessions listed are of other projects, not this
/// one" (exit 4), which sent an agent to start a third app.
#[test]
fn a_folder_with_two_live_projects_at_one_depth_asks_which_one_is_meant() {
    let sb = Sandbox::new();
    let a = sb.start_sample(&sb.project("w/a"));
    let b = sb.start_sample(&sb.project("w/b"));
    let other = sb.start_sample(&sb.project("other"));
    let in_folder = |args: &[&str]| {
        let mut command = sb.mur_command(args);
        mur_e2e::run(command.current_dir(sb.dir("w")))
    };
    let out = in_folder(&["devtools", "call", "version"]);
    out.assert_code(1).assert_stdout_is("");
    out.assert_stderr_is(several_sessions_error(&[&other, &a, &b], "call version"));

    let out = in_folder(&["devtools", "--project", ".", "call", "version"]);
    out.assert_code(1).assert_stdout_is("");
    out.assert_stderr_is(format!(
        "error: `{}` is a folder with the projects of 2 live devtools sessions in it; which \
         one is meant?\n{}\
         hint: a project is named by its file: choose one with `--project PATH`; for the \
         first: `mur devtools --project {} call version`\n",
        sb.canonical_project(&sb.dir("w")),
        session_rows(&[&a, &b]),
        a.lock.project,
    ));
    in_folder(&["devtools", "--project", &a.lock.project, "call", "version"])
        .assert_answered_by(a.pid());
}

/// `--project app2` typed in the folder `app` beside `app2` (a relative path from the
/// wrong folder), both apps running: the did-you-mean names `app2`'s project, the
/// folder typed, not `app`'s beside the path typed (user audit AU11 2: an agent that
/// followed it drove the other app); `--project ../app2` (the folder) is `app2`'s.
#[test]
fn a_project_typed_from_the_wrong_folder_is_pointed_at_the_folder_typed_not_beside_it() {
    let sb = Sandbox::new();
    let app = sb.start_sample(&sb.project("app"));
    let app2 = sb.start_sample(&sb.project("app2"));
    let from_app = |typed: &str| {
        let mut command = sb.mur_command(&["devtools", "--project", typed, "call", "version"]);
        mur_e2e::run(command.current_dir(sb.dir("app")))
    };
    let out = from_app("app2");
    out.assert_code(4).assert_stdout_is("");
    let typed = sb.canonical_project(&sb.root().join("app/app2"));
    out.assert_stderr_is(other_projects(&typed, &[&app, &app2], &app2));
    from_app("../app2").assert_answered_by(app2.pid());
}

/// What a call for `project` says of a session that holds its slot and has not announced
/// itself.
fn stuck_starting(sb: &Sandbox, project: &Path) -> String {
    format!(
        "error: no live devtools session for project `{}`\n\
         hint: a session holds its project's slot but has not announced itself within 5 s: it \
         is starting, or stuck starting; run the command again once it has (`mur devtools \
         session list` shows the sessions that have)\n",
        sb.canonical_project(project)
    )
}

/// A session that holds its project's slot and never announces itself: discovery waits
/// for it, then says so, and nothing that contradicts it (start the app, `--endpoint`).
#[test]
fn a_session_stuck_starting_is_said_alone() {
    let sb = Sandbox::new();
    let project = sb.project("a");
    sb.registry().ensure_dir().expect("lockfile directory");
    let _slot = mur_lockfile::SlotLock::try_acquire(&sb.lockfile_path(&project))
        .expect("lock")
        .expect("a free slot");
    let out = call_version_for(&sb, &project);
    out.assert_code(4).assert_stdout_is("");
    out.assert_stderr_is(stuck_starting(&sb, &project));
}

/// `--project FOLDER` waits, as its project file's `--project` does, for a bridge of a
/// project directly in the folder still starting (its slot held, its sidecar naming its
/// project, no lockfile yet), then says it alone: it said at once "no live devtools
/// session", "start the app", of the bridge on its way.
#[cfg(unix)]
#[test]
fn a_folders_bridge_still_starting_is_waited_for_as_its_project_files_is() {
    use std::os::unix::fs::PermissionsExt as _;
    let sb = Sandbox::new();
    let folder = sb.dir("f");
    let project = folder.join("B.csproj");
    sb.registry().ensure_dir().expect("lockfile directory");
    let lockfile = sb.lockfile_path(&project);
    let _slot = mur_lockfile::SlotLock::try_acquire(&lockfile)
        .expect("lock")
        .expect("a free slot");
    let sidecar = lockfile.with_extension("bridge");
    let fields = serde_json::json!({
        "schema": "mur-bridge/1",
        "pid": std::process::id(),
        "startedAt": mur_lockfile::now_rfc3339(),
        "project": sb.canonical_project(&project),
    });
    std::fs::write(&sidecar, fields.to_string()).expect("sidecar");
    std::fs::set_permissions(&sidecar, std::fs::Permissions::from_mode(0o600)).expect("0600");
    let out = call_version_for(&sb, &folder);
    out.assert_code(4).assert_stdout_is("");
    out.assert_stderr_is(stuck_starting(&sb, &folder));
}

/// A crashed session's lockfile removed by a look that found no session while another
/// was on its way (its slot held): what the look after says, whether that session then
/// announces itself (the warning naming it, as without the wait) or never does (the
/// crash said above the stuck-starting hint). Reviewer RV1 F1: the second look had no
/// lockfile left to tell the crash by, and mur answered from another project with an
/// empty stderr, or dropped the crash from the error.
#[test]
fn a_crash_is_said_though_a_session_was_on_its_way() {
    let sb = Sandbox::new();
    let project = sb.project("a");
    sb.registry().ensure_dir().expect("lockfile directory");
    let pid = dead_pid();
    let stale = sb.plant_http_lockfile("/gone/App.csproj", pid, free_port());
    let held = held_slot(&sb, &project);
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_code(4).assert_stdout_is("");
    out.assert_stderr_is(format!(
        "error: no running devtools session found\n{}\n\
         hint: a session holds its project's slot but has not announced itself within 5 s: it \
         is starting, or stuck starting; run the command again once it has (`mur devtools \
         session list` shows the sessions that have)\n",
        ended("hint", "/gone/App.csproj", pid)
    ));
    assert!(!stale.exists(), "the stale lockfile was removed");
    drop(held);

    // The session on its way announces itself once the call has removed the lockfile, its
    // slot held throughout (a free slot is "no session"). It runs before the call starts,
    // its lockfile withdrawn, so it is announced the moment the lockfile is gone: one
    // started then had to announce itself within discovery's 5 s, however loaded the
    // machine.
    let session = sb.start_sample(&project);
    let withdrawn = session.withdraw();
    let stale = sb.plant_http_lockfile("/gone/App.csproj", pid, free_port());
    let call = calling_once_removed(&sb, &stale);
    withdrawn.announce();
    let out = call.wait_output();
    out.assert_code(0).assert_answered_by(session.pid());
    out.assert_stderr_is(used_instead(pid, &session));
}

/// The slot of `project`'s session, held as by a session on its way.
fn held_slot(sb: &Sandbox, project: &Path) -> mur_lockfile::SlotLock {
    mur_lockfile::SlotLock::try_acquire(&sb.lockfile_path(project))
        .expect("lock")
        .expect("a free slot")
}

/// `mur devtools call version` running, once it has removed the `stale` lockfile.
fn calling_once_removed(sb: &Sandbox, stale: &Path) -> mur_e2e::Process {
    let mut call = sb.mur_command(&["devtools", "call", "version"]);
    let call = mur_e2e::Process::spawn(
        call.stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    );
    mur_e2e::wait_until("the stale lockfile removed", || {
        (!stale.exists()).then_some(())
    });
    call
}

/// A crashed session whose lockfile one look removed, and whose project's restart the
/// next look finds, is no news, as in a single look: the restart answers without a
/// word (it warned "the session of `A` (pid 1) has ended …; the session of `A` (pid 2)
/// is used instead", of one project, RV4 LOW 5). The crashed one had announced itself
/// in `${TMPDIR}/reactor-devtools-<uid>` (started without `XDG_RUNTIME_DIR`), the restart
/// where sessions write now: a slot each, so the restart runs and holds its own from
/// before the call, its lockfile withdrawn until the call has removed the crashed one's
/// (a restart started then had to announce itself within discovery's 5 s).
#[test]
fn a_crashed_session_whose_restart_answers_a_later_look_is_not_told() {
    let sb = Sandbox::new();
    let project = sb.project("a");
    let canonical = sb.canonical_project(&project);
    let session = sb.start_sample(&project);
    let withdrawn = session.withdraw();
    let crashed = mur_lockfile::Lockfile::http(free_port(), dead_pid(), canonical, "t".into());
    let shared = NoRuntimeVar::new(&sb).shared();
    let stale = shared.write(&crashed).expect("a stale lockfile");
    let call = calling_once_removed(&sb, &stale);
    withdrawn.announce();
    let out = call.wait_output();
    out.assert_code(0).assert_answered_by(session.pid());
    out.assert_stderr_is("");
}

#[test]
fn project_without_a_session_exits_4() {
    let sb = Sandbox::new();
    let _a = sb.start_sample(&sb.project("a"));
    let out = call_version_for(&sb, &sb.project("other"));
    out.assert_code(4);
    out.assert_stderr_contains("no live devtools session for project");
}

/// The hint under every "no session" (one line: it was two, 330 bytes, repeated under
/// every exit 4 of user audit AU11's transcript), `searched` the directories searched.
fn start_the_app(searched: &str) -> String {
    format!(
        "hint: start the app with its devtools session enabled (`mur devtools guide` says \
         how); `--auto` scans loopback ports for one that left no lockfile, `--endpoint URL` \
         reaches any other MCP server; a session announces itself in {searched}\n"
    )
}

/// What a reader says of the session of `project` (pid `pid`) whose lockfile it removed,
/// after `prefix` (`note`, `hint`, `warning`).
fn ended(prefix: &str, project: &str, pid: u32) -> String {
    format!(
        "{prefix}: the session of `{project}` (pid {pid}) has ended without withdrawing its \
         lockfile: it crashed or was killed"
    )
}

/// The warning a call answered by `session` gives of the session of `/gone/App.csproj`
/// (pid `pid`), whose lockfile it removed.
fn used_instead(pid: u32, session: &mur_e2e::Session) -> String {
    format!(
        "{}; the session of `{}` (pid {}) is used instead\n",
        ended("warning", "/gone/App.csproj", pid),
        session.lock.project,
        session.pid()
    )
}

/// The `note:` a reader gives of the session of `project` (pid `pid`) whose lockfile it
/// removed.
pub(crate) fn ended_note(project: &str, pid: u32) -> String {
    format!("{}\n", ended("note", project, pid))
}

/// The agents' guide quotes the lines a crash gets as these tests check mur prints them,
/// up to "has ended" (reviewer RV1 F7d: it left out the exit-0 warning, and quoted the
/// hint under `--project`'s error in other words).
#[test]
fn the_guide_quotes_a_crashs_lines_as_mur_prints_them() {
    let guide = mur_e2e::plugins::repo_root().join("docs/agents.md");
    let guide = std::fs::read_to_string(guide).expect("the guide");
    let flat = guide.split_whitespace().collect::<Vec<_>>().join(" ");
    let up_to_ended = |line: &str| {
        let (said, _) = line.split_once(" without").expect("has ended without …");
        format!("{}…", said.replace("(pid 0)", "(pid N)"))
    };
    for quoted in [
        up_to_ended(&ended("hint", "…", 0)),
        up_to_ended("hint: this project's session (pid 0) has ended without …"),
        format!(
            "{}; the session of `B` (pid M) is used instead",
            up_to_ended(&ended("warning", "A", 0))
        ),
    ] {
        assert!(
            flat.contains(&quoted),
            "docs/agents.md quotes no `{quoted}`"
        );
    }
}

/// A stale lockfile is skipped and removed on the way; the session it names, one the
/// call could have gone to, is said to have ended, once, naming the session used
/// instead, and `-q` keeps the line (user audit AU11 1: `-q` hid the only sign, and the
/// output read as the crashed app's).
#[test]
fn a_stale_lockfile_is_skipped_and_removed_on_the_way() {
    let sb = Sandbox::new();
    let sample = sb.start_sample(&sb.project("live"));
    let pid = dead_pid();
    for quiet in [&[][..], &["-q"]] {
        let stale = sb.plant_http_lockfile("/gone/App.csproj", pid, free_port());
        let out = sb.mur(&[&["devtools"][..], quiet, &["call", "version"]].concat());
        out.assert_code(0).assert_answered_by(sample.pid());
        out.assert_stderr_is(used_instead(pid, &sample));
        assert!(!stale.exists(), "the stale lockfile was removed");
        sb.mur(&["devtools", "call", "version"])
            .assert_quiet_success();
    }
}

/// A stdio session's stale lockfile (a bridged `mur-sample --stdio` that crashed) is
/// removed without a word by a call another session answers: no call could have used the
/// stdio session, so its end is no news to one. It said "…; the session of `…` is used
/// instead", as if the stdio one had been the one meant (review 307, finding 4).
#[test]
fn a_stdio_sessions_stale_lockfile_is_removed_unsaid() {
    let sb = Sandbox::new();
    let sample = sb.start_sample(&sb.project("live"));
    for quiet in [&[][..], &["-q"]] {
        let stale = sb.plant_stdio_lockfile("/gone/Stdio.csproj", dead_pid());
        let out = sb.mur(&[&["devtools"][..], quiet, &["call", "version"]].concat());
        out.assert_code(0).assert_answered_by(sample.pid());
        out.assert_stderr_is("");
        assert!(!stale.exists(), "the stale lockfile was removed");
    }
}

/// With no session to call, a stdio session's stale lockfile adds nothing to "no session":
/// it said the stdio session had ended, as if starting it again would do.
#[test]
fn a_stdio_sessions_stale_lockfile_is_no_hint_under_no_session() {
    let sb = Sandbox::new();
    let stale = sb.plant_stdio_lockfile("/gone/Stdio.csproj", dead_pid());
    sb.mur(&["devtools", "call", "version"])
        .assert_code(4)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: no running devtools session found\n{}",
            start_the_app(&sb.registry().searched()),
        ));
    assert!(!stale.exists(), "the stale lockfile was removed");
}

/// An app killed (`kill -9`) left its lockfile: the call after it says the session
/// ended, once, in the first hint under "no session" (which read as if no app had ever
/// run); one of
/// another project than `--project`'s goes without a word, as it was no candidate.
#[test]
fn an_app_killed_is_said_to_have_ended_not_never_to_have_run() {
    let sb = Sandbox::new();
    let no_session = format!(
        "error: no running devtools session found\n{}",
        start_the_app(&sb.registry().searched()),
    );
    // Said in a hint before the others, which `-q` keeps (user audit AU11 1: a note,
    // which it hid, was the only sign of the crash).
    for quiet in [&[][..], &["-q"]] {
        let a = sb.start_sample(&sb.project("a"));
        let (project, pid) = (a.lock.project.clone(), a.pid());
        a.kill();
        // A lookup that says nothing (tab completion) leaves the lockfile to the command
        // that says it removed it.
        sb.complete("bash", &["devtools", ""]).assert_code(0);
        let out = sb.mur(&[&["devtools"][..], quiet, &["call", "version"]].concat());
        out.assert_code(4).assert_stdout_is("");
        let (error, hints) = no_session.split_once('\n').expect("two lines");
        out.assert_stderr_is(format!(
            "{error}\n{}\n{hints}",
            ended("hint", &project, pid)
        ));
        sb.mur(&["devtools", "call", "version"])
            .assert_code(4)
            .assert_stderr_is(&no_session);
    }

    let a = sb.start_sample(&sb.project("a"));
    let b = sb.start_sample(&sb.project("b"));
    let b_lockfile = b.lockfile.clone();
    b.kill();
    sb.mur(&["devtools", "--project", &a.lock.project, "call", "version"])
        .assert_quiet_success()
        .assert_answered_by(a.pid());
    assert!(!b_lockfile.exists(), "the stale lockfile was removed");
}

#[test]
fn a_malformed_lockfile_is_skipped_with_a_notice() {
    let sb = Sandbox::new();
    let sample = sb.start_sample(&sb.project("live"));
    let bad = sb.plant_lockfile("/bad/App.csproj", "{ not json");
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_answered_by(sample.pid());
    let notice = format!("warning: skipping malformed lockfile `{}`: ", bad.display());
    out.assert_stderr_starts_with(&notice);
    assert!(
        out.stderr
            .ends_with(" (`mur devtools session clean` removes it)\n"),
        "{out}"
    );
    assert_eq!(out.stderr.lines().count(), 1, "one line: {out}");
    assert!(bad.exists(), "a call does not delete a malformed file");
    // `session clean` does, when asked: no session wrote it (they write theirs whole).
    let future = sb.plant_lockfile(
        "/v2/App.csproj",
        r#"{"schema":"reactor-devtools-lockfile/2","endpoint":"x"}"#,
    );
    let dry = sb.mur(&["devtools", "session", "clean", "--dry-run"]);
    dry.assert_code(0)
        .assert_stdout_is(format!("{}\n", bad.display()));
    assert!(
        dry.stderr.ends_with("would remove 1 malformed lockfile\n"),
        "{dry}"
    );
    // It is the way: it does not tell itself to run.
    assert!(!dry.stderr.contains("malformed lockfile `"), "{dry}");
    let clean = sb.mur(&["devtools", "session", "clean"]);
    clean.assert_code(0);
    assert!(
        clean.stderr.ends_with("removed 1 malformed lockfile\n"),
        "{clean}"
    );
    assert!(!clean.stderr.contains("malformed lockfile `"), "{clean}");
    assert!(!bad.exists(), "removed");
    assert!(future.exists(), "a lockfile of a newer schema is kept");
    assert!(sample.lockfile.exists(), "the live session's is kept");
}

/// Past four skipped files of a kind, three are named and one line counts the rest: a
/// directory of 10,000 malformed files was 10,000 lines on every command's stderr. The
/// clean that removes them says neither.
#[test]
fn many_skipped_lockfiles_are_named_a_few_and_counted() {
    let sb = Sandbox::new();
    let sample = sb.start_sample(&sb.project("live"));
    for n in 0..10 {
        sb.plant_lockfile(&format!("/bad{n}/App.csproj"), "{ not json");
    }
    for n in 0..6 {
        sb.plant_lockfile(
            &format!("/v2-{n}/App.csproj"),
            r#"{"schema":"reactor-devtools-lockfile/2","endpoint":"x"}"#,
        );
    }
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_answered_by(sample.pid());
    let lines = out.stderr_lines("warning:");
    let named = |what: &str| lines.iter().filter(|l| l.contains(what)).count();
    assert_eq!(
        (
            lines.len(),
            named("skipping malformed lockfile `"),
            named("of unknown schema")
        ),
        (8, 3, 3),
        "{out}"
    );
    assert!(
        lines.contains(
            &"warning: and 7 more malformed lockfiles were skipped (`mur devtools session clean` \
              removes them)"
        ),
        "{out}"
    );
    assert!(
        lines.contains(
            &"warning: and 3 more lockfiles of another schema, or not yours, were skipped"
        ),
        "{out}"
    );
    let clean = sb.mur(&["devtools", "session", "clean"]);
    clean.assert_code(0);
    let warned = clean.stderr_lines("warning:");
    assert!(!warned.iter().any(|l| l.contains("malformed")), "{clean}");
    assert!(
        clean.stderr.ends_with("removed 10 malformed lockfiles\n"),
        "{clean}"
    );
}

#[test]
fn a_lockfile_of_unknown_schema_is_skipped_with_a_notice() {
    let sb = Sandbox::new();
    let path = sb.plant_lockfile(
        "/v2/App.csproj",
        r#"{"schema":"reactor-devtools-lockfile/2","endpoint":"x"}"#,
    );
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_code(4);
    let notice = format!(
        "warning: skipping lockfile `{}` of unknown schema `reactor-devtools-lockfile/2`\n",
        path.display()
    );
    out.assert_stderr_starts_with(&notice);
}

#[test]
fn a_live_pid_whose_endpoint_is_a_plain_web_server_is_rejected() {
    let sb = Sandbox::new();
    let web = Stub::plain_http();
    // This test process is certainly alive; the endpoint is not devtools.
    let path = sb.plant_http_lockfile("/impostor/App.csproj", std::process::id(), web.port());
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_code(4);
    out.assert_stderr_contains(&format!(
        "warning: skipping lockfile `{}`: pid",
        path.display()
    ));
    out.assert_stderr_contains("error: no running devtools session found");
    assert!(path.exists(), "a lockfile whose process runs is left alone");
    assert!(
        !web.requests().iter().any(|r| r.method == "POST"),
        "no call was sent to the impostor"
    );
}

#[test]
fn a_stdio_session_is_refused_for_calls() {
    let sb = Sandbox::with_stdio_session();
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_code(4);
    out.assert_stderr_contains("uses the stdio transport, and `mur` speaks HTTP only");
}

#[cfg(unix)]
#[test]
fn a_group_writable_lockfile_is_refused() {
    use std::os::unix::fs::PermissionsExt as _;
    let sb = Sandbox::new();
    let web = Stub::plain_http();
    let path = sb.plant_http_lockfile("/planted/App.csproj", std::process::id(), web.port());
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_code(4);
    out.assert_stderr_contains("refusing lockfile");
    out.assert_stderr_contains("writable by group or others");
    assert!(
        !web.requests().iter().any(|r| r.method == "POST"),
        "no call was sent to the planted endpoint"
    );
}

#[cfg(unix)]
#[test]
fn an_open_lockfile_directory_is_refused() {
    use std::os::unix::fs::PermissionsExt as _;
    let (sb, _sample) = Sandbox::with_app();
    std::fs::set_permissions(sb.lockfile_dir(), std::fs::Permissions::from_mode(0o777))
        .expect("chmod");
    // At once, and this is what to fix: the session there holds its slot, but it is
    // on no way to be found (mur waited 5 s for it, then said it was stuck starting).
    sb.mur(&["devtools", "call", "version"])
        .assert_code(4)
        .assert_stderr_is(format!(
            "error: refusing lockfile directory `{0}`: writable by group or others (mode 777)\n\
             hint: a lockfile directory must be yours and private: `chmod 700 {0}`\n",
            sb.lockfile_dir().display()
        ));
}

#[test]
fn endpoint_bypasses_discovery() {
    let (sb, sample) = Sandbox::with_app();
    // A second sandbox has no lockfiles at all: only --endpoint can reach the session.
    let empty = Sandbox::new();
    let out = empty.devtools_at(sample.endpoint(), &["call", "version"]);
    out.assert_answered_by(sample.pid());
    // Without the path, the answer says where MCP is served.
    let bare = sample.endpoint().trim_end_matches("/mcp");
    let out = empty.devtools_at(bare, &["call", "version"]);
    out.assert_code(2).assert_stderr_is(format!(
        "error: `{bare}` answered HTTP 404 Not Found and no MCP response: (empty body)\n\
             hint: nothing is served at that path: a devtools session serves MCP at `/mcp` \
             (`http://127.0.0.1:PORT/mcp`, as `session list` shows it)\n"
    ));
    // Ambiguity does not matter either.
    let _other = sb.start_sample(&sb.project("other"));
    let out = sb.mur(&[
        "devtools",
        "call",
        "version",
        "--endpoint",
        sample.endpoint(),
    ]);
    out.assert_code(0);
}

#[test]
fn an_unreachable_endpoint_exits_2_with_the_transport_error() {
    let sb = Sandbox::new();
    // Bound and never listened on: no other test's server can be handed the port.
    let (_closed_socket, port) = refusing_port();
    let endpoint = format!("http://127.0.0.1:{port}/mcp");
    let out = sb.devtools_at(&endpoint, &["call", "version"]);
    out.assert_code(2).assert_stdout_is("");
    out.assert_stderr_starts_with(&format!("error: `{endpoint}`: could not connect"));
}

#[test]
fn auto_finds_a_session_whose_lockfile_was_deleted() {
    let sb = Sandbox::new();
    let project = sb.project("app");
    // A port inside the default --auto range (the OS's ephemeral ports).
    let (sample, _) = sb.start_sample_on_a_free_port(&project, &[]);
    std::fs::remove_file(&sample.lockfile).expect("delete lockfile");
    let project_arg = project.to_str().expect("utf-8");
    let out = sb.mur(&["devtools", "--project", project_arg, "call", "version"]);
    out.assert_code(4);
    // Other tests' sessions may be listening too: --project picks ours.
    let out = sb.mur(&[
        "devtools",
        "--auto",
        "--project",
        project_arg,
        "call",
        "version",
    ]);
    out.assert_answered_by(sample.pid());
}

#[test]
fn auto_range_scans_only_the_given_ports() {
    let sb = Sandbox::new();
    let web = Stub::plain_http();
    let range = format!("{0}-{0}", web.port());
    let out = sb.mur(&["devtools", "--auto-range", &range, "call", "version"]);
    out.assert_code(4);
    // The web server is named: it answered HTTP, if not as a devtools session.
    out.assert_stderr_is(format!(
        "error: no running devtools session found\n\
         hint: `--auto` scanned 127.0.0.1 ports {range} for devtools sessions\n\
         hint: port {0} answered HTTP, not as a devtools session: if it is an MCP server, \
         reach it with `--endpoint http://127.0.0.1:{0}/mcp`\n",
        web.port()
    ));
}

#[test]
fn a_stopped_session_is_a_transport_error_naming_it_not_no_session() {
    let (sb, sample) = Sandbox::with_app();
    signal(sample.pid(), "STOP");
    let call = sb.mur(&["devtools", "call", "version"]);
    let list = sb.mur(&["devtools", "session", "list"]);
    signal(sample.pid(), "CONT");
    call.assert_code(2);
    let named = format!(
        "(pid {}) at `{}` runs but did not answer the probe within 1500 ms",
        sample.pid(),
        sample.endpoint()
    );
    call.assert_stderr_contains(&named);
    call.assert_stderr_contains(&format!("kill -CONT {}", sample.pid()));
    list.assert_code(2).assert_stdout_is("");
    list.assert_stderr_contains(&named);
    assert!(
        sample.lockfile.exists(),
        "a stopped session's lockfile is kept"
    );
    // Resumed, it answers again.
    sb.mur(&["devtools", "call", "version"]).assert_code(0);
}

#[test]
fn a_stdio_lockfile_whose_pid_was_reused_is_stale() {
    let sb = Sandbox::new();
    // This test process runs, but started long after the lockfile's startedAt.
    let mut lock =
        mur_lockfile::Lockfile::stdio(std::process::id(), "/old/App.csproj".into(), "b".into());
    lock.started_at = "2001-02-03T04:05:06Z".into();
    let path = sb.plant_lockfile(&lock.project, &serde_json::to_string(&lock).expect("json"));
    let out = sb.mur(&["devtools", "session", "list"]);
    out.assert_code(4);
    assert!(!path.exists(), "the stale lockfile is removed on the way");
}

#[test]
fn lockfile_endpoints_off_loopback_are_never_contacted() {
    let sb = Sandbox::new();
    for (project, endpoint) in [
        ("/far/App.csproj", "http://10.255.255.1:80/mcp"),
        ("/named/App.csproj", "http://example.com/mcp"),
    ] {
        let mut lock =
            mur_lockfile::Lockfile::http(80, std::process::id(), project.into(), "b".into());
        lock.endpoint = endpoint.into();
        sb.plant_lockfile(project, &serde_json::to_string(&lock).expect("json"));
    }
    let out = sb.mur(&["devtools", "call", "version"]);
    out.assert_code(4);
    for endpoint in ["http://10.255.255.1:80/mcp", "http://example.com/mcp"] {
        out.assert_stderr_contains(&format!("`{endpoint}` is not a loopback address"));
    }
}

#[test]
fn an_endpoint_flag_off_loopback_is_refused_before_any_request() {
    let sb = Sandbox::new();
    sb.call_version_at("http://example.com/mcp", &[])
        .assert_code(1)
        .assert_stderr_starts_with(
            "error: `--endpoint http://example.com/mcp` is not a loopback address",
        );
}

/// An `--endpoint` mur's HTTP cannot read (a space, a newline, DEL in it) is a usage
/// error where it is typed, before the verb or after it: it passed the loopback check
/// and was refused by the HTTP layer as a request that failed (exit 2).
#[test]
fn an_endpoint_flag_the_http_layer_cannot_read_is_a_usage_error() {
    let sb = Sandbox::new();
    for (url, shown) in [
        ("http://127.0.0.1:1/ x", "http://127.0.0.1:1/ x"),
        ("http://127.0.0.1:1/\n", "http://127.0.0.1:1/\\x0a"),
        ("http://127.0.0.1:1/\x7f", "http://127.0.0.1:1/\\x7f"),
    ] {
        let refused = format!(
            "error: invalid value `{shown}` for `--endpoint <URL>`: not a URL (invalid uri \
             character); nothing was sent\n"
        );
        sb.call_version_at(url, &[])
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(&refused);
        sb.mur(&["devtools", "state", "--endpoint", url])
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(&refused);
    }
}

#[test]
fn a_fifo_in_the_lockfile_directory_blocks_nothing() {
    let sb = Sandbox::new();
    sb.plant_http_lockfile("/gone/App.csproj", dead_pid(), free_port());
    let fifo = sb.lockfile_dir().join("x.json");
    mkfifo(&fifo);
    let skipped = format!(
        "skipping malformed lockfile `{}`: a FIFO, not a file",
        fifo.display()
    );
    // Before, each of these waited forever for a writer on the FIFO. `session clean`
    // counts it among what it removes, rather than saying it skips it; `session list`
    // removed the dead session's stale lockfile, and its slot lock with it (it was left
    // for `session clean` as "1 file of an ended session").
    let cleaned = "1 malformed lockfile\n";
    for (args, code, said) in [
        (&["devtools", "session", "list"][..], 4, skipped.as_str()),
        (&["devtools", "session", "clean", "--dry-run"], 0, cleaned),
        (&["devtools", "call", "version"], 4, skipped.as_str()),
        (&["devtools", "session", "clean"], 0, cleaned),
    ] {
        let out = sb.mur(args);
        out.assert_code(code);
        assert!(out.stderr.contains(said), "{args:?}: {out}");
    }
    // Named like a lockfile and none, it is `session clean`'s to remove.
    assert!(!fifo.exists(), "the FIFO is removed");
}

#[test]
fn timeout_bounds_discovery_too() {
    let sb = Sandbox::new();
    // A session's process (this one) whose endpoint accepts and never answers.
    let (listener, port) = silent_listener();
    sb.plant_http_lockfile("/slow/App.csproj", std::process::id(), port);
    let out = sb.mur(&["devtools", "--timeout", "200", "call", "version"]);
    // The hint's first word is the fix: a longer bound, which it writes out.
    out.assert_code(2).assert_stderr_is(
        "error: finding the session took longer than 200 ms\n\
         hint: give it longer: `mur devtools --timeout 10000 …`; `-v` shows what discovery was \
         waiting for, `--endpoint URL` skips it\n",
    );
    drop(listener);
}

#[test]
fn control_characters_in_lockfile_names_reach_the_terminal_escaped() {
    let sb = Sandbox::new();
    let path = sb.lockfile_dir().join("\u{1b}[2J.json");
    sb.plant_lockfile("/x/App.csproj", "{}");
    std::fs::write(&path, "not json").expect("plant");
    let out = sb.mur(&["devtools", "session", "list"]);
    out.assert_code(4);
    assert!(!out.stderr.contains('\u{1b}'), "raw ESC on stderr: {out:?}");
    out.assert_stderr_contains("\\x1b[2J.json");
}

/// The usage records of this sandbox, oldest first.
fn usage_records(sb: &Sandbox) -> Vec<serde_json::Value> {
    std::fs::read_to_string(sb.usage_log())
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).expect("a usage record"))
        .collect()
}

#[test]
fn a_named_verb_says_what_discovery_found_only_when_it_calls() {
    // What discovery says shows once, before the result, and only when the call is
    // made: a verb that refuses its argv or prints help names no session (a way to
    // find the session while the verb parses must keep this; docs/performance.md, "Discovery
    // beside the verb's parse").
    let (sb, _app) = mur_e2e::plugins::standard_session();
    let bad = sb.plant_lockfile("/bad/App.csproj", "{ not json");
    let notice = format!("warning: skipping malformed lockfile `{}`: ", bad.display());

    let out = sb.devtools(&["state", "--selector", "#count"]);
    out.assert_code(0);
    assert_eq!(out.json()["id"], "count", "{out}");
    out.assert_stderr_starts_with(&notice);
    assert_eq!(out.stderr.lines().count(), 1, "one line: {out}");

    for (args, code) in [
        (&["state", "--bogus"][..], 1),
        (&["state", "--selector", "#count", "--help"], 0),
    ] {
        let out = sb.devtools(args);
        out.assert_code(code);
        assert!(!out.stderr.contains("skipping"), "{args:?}: {out}");
    }
    let records = usage_records(&sb);
    assert_eq!(records.len(), 2, "help is not a call: {records:?}");
    assert!(records[0]["project"].is_string(), "{records:?}");
    assert!(records[0]["phases"]["discovery"].is_number(), "{records:?}");
    // Refused before any call: no session is named, whatever discovery found meanwhile.
    assert_eq!(records[1]["class"], "usage", "{records:?}");
    assert_eq!(records[1].get("project"), None, "{records:?}");
    assert_eq!(records[1]["phases"].get("discovery"), None, "{records:?}");
}

#[test]
fn a_verb_may_wait_longer_than_the_host_timeout() {
    let (sb, _app) = mur_e2e::plugins::standard_session();
    // The host's 200 ms bound is lengthened by the verb's own 4000 ms (`wait --timeout`),
    // to 6000 ms: the session's own answer comes first with 2 s to spare (800 ms left
    // 400 ms, less discovery, which a loaded machine could take).
    let out = sb.devtools(&["--timeout", "200", "wait", "#nope", "--timeout", "4000"]);
    out.assert_code(5);
    out.assert_stderr_starts_with(
        "error: `wait` (tool `waitFor`) failed: timed out after 4000 ms waiting for `#nope` to exist",
    );
}

/// A lockfile directory mur cannot read is mur's own failure (exit 7), not "no session"
/// (exit 4, on which a script would start the app, which could not announce itself there).
#[test]
fn an_unreadable_lockfile_directory_is_mur_failing_not_no_session() {
    let sb = Sandbox::new();
    let dir = sb.lockfile_dir();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::write(&dir, "not a directory").expect("a file in its place");
    // Private, as a trusted lockfile directory is: only the read fails.
    let private = <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o600);
    std::fs::set_permissions(&dir, private).expect("chmod");
    let out = sb.devtools(&["session", "list"]);
    out.assert_code(7);
    assert_eq!(
        out.stderr,
        format!(
            "error: cannot read lockfile directory `{}`: Not a directory (os error 20)\n\
             hint: sessions announce themselves there: it must be a directory mur can read\n",
            dir.display()
        )
    );
}

/// A devtools endpoint that another user runs: answers the probe as a session and
/// records on stdout the `Authorization` header of every POST (then 401, as a bridge
/// refusing). Python as uid 65534, as any local user could.
const STRANGER: &str = r#"
import http.server, json, os, socket, sys
class Stranger(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def answer(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_GET(self):
        self.answer(200, {"schema": "reactor-devtools-mcp/1", "pid": os.getpid()})
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        print("authorization:", self.headers.get("Authorization"), flush=True)
        self.answer(401, {"error": "unauthorized"})
class Server(http.server.HTTPServer):
    address_family = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
server = Server((sys.argv[1], 0), Stranger)
print(server.server_address[1], flush=True)
server.serve_forever()
"#;

/// A bridge's secret goes only to a port of the user's own: its lockfile and sidecar
/// are the user's, but the port they name is a number, and a port another user bound
/// (the bridge died, or the lockfile was never right) took the secret before.
#[test]
fn a_bridge_s_secret_is_not_sent_to_a_port_another_user_holds() {
    let python = Path::new("/usr/bin/python3");
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n");
    if !python.exists() || !root {
        eprintln!("skipped: needs root and /usr/bin/python3 to run a server as another user");
        return;
    }
    // Bound as 127.0.0.1, and the IPv6 way, which takes 127.0.0.1's connections too.
    for bind in ["127.0.0.1", "::ffff:127.0.0.1"] {
        secret_kept_from_a_stranger_at(python, bind);
    }
}

fn secret_kept_from_a_stranger_at(python: &Path, bind: &str) {
    let sb = Sandbox::new();
    let mut stranger = std::process::Command::new("setpriv");
    stranger
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(python)
        .args(["-c", STRANGER, bind])
        .stdout(std::process::Stdio::piped());
    let mut stranger = mur_e2e::Process::spawn(&mut stranger);
    let mut said = std::io::BufReader::new(stranger.child_mut().stdout.take().expect("stdout"));
    let mut line = String::new();
    std::io::BufRead::read_line(&mut said, &mut line).expect("the stranger's port");
    let port: u16 = line.trim().parse().expect("the stranger's port");
    let project = "/work/app/App.csproj";
    let lockfile = sb.plant_http_lockfile(project, stranger.pid(), port);
    let lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&lockfile).expect("lockfile")).expect("json");
    let secret = "00ff".repeat(16);
    let sidecar = serde_json::json!({
        "schema": "mur-bridge/1", "pid": stranger.pid(), "startedAt": lock["startedAt"],
        "log": "/dev/null", "command": ["server"], "secret": secret,
    });
    let sidecar_path = lockfile.with_extension("bridge");
    std::fs::write(&sidecar_path, sidecar.to_string()).expect("sidecar");
    std::fs::set_permissions(
        &sidecar_path,
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .expect("chmod");

    let out = sb.mur(&["devtools", "--project", project, "call", "version"]);
    stranger.kill();
    let mut seen = String::new();
    std::io::Read::read_to_string(&mut said, &mut seen).expect("the stranger's record");
    assert!(
        seen.contains("authorization:"),
        "{bind}: mur reached the stranger: {seen}\n{out}"
    );
    assert!(
        !seen.contains(&secret),
        "{bind}: the secret went to another user's port: {seen}"
    );
    out.assert_code(2);
    assert!(
        out.stderr.contains(&format!(
            "mur did not read the bridge's secret: the port of `http://127.0.0.1:{port}/mcp` \
             is held by another user (uid 65534), not by the bridge its lockfile names"
        )),
        "{out}"
    );
}

/// A sandbox's processes started as an MCP SDK starts a stdio server, without
/// `XDG_RUNTIME_DIR`: `TMPDIR` is the sandbox's `tmp`, and the login's runtime
/// directories (`/run/user`) are under the sandbox's `login`
/// (`MUR_LOGIN_RUNTIME_BASE`), none of the user's own until [`NoRuntimeVar::log_in`].
pub(crate) struct NoRuntimeVar<'a> {
    sb: &'a Sandbox,
    temp: std::path::PathBuf,
    base: std::path::PathBuf,
}

impl<'a> NoRuntimeVar<'a> {
    pub(crate) fn new(sb: &'a Sandbox) -> Self {
        Self {
            sb,
            temp: sb.dir("tmp"),
            base: sb.dir("login"),
        }
    }

    /// `command` (of the sandbox) in this environment.
    pub(crate) fn env(&self, mut command: std::process::Command) -> std::process::Command {
        command
            .env_remove("XDG_RUNTIME_DIR")
            .env("TMPDIR", &self.temp)
            .env("MUR_LOGIN_RUNTIME_BASE", &self.base);
        command
    }

    pub(crate) fn mur(&self, args: &[&str]) -> Output {
        mur_e2e::run(&mut self.env(self.sb.mur_command(args)))
    }

    /// `mur` as the user's shell runs it, `XDG_RUNTIME_DIR` set (the sandbox's), with
    /// the same `TMPDIR` as the processes started without it.
    pub(crate) fn mur_with_the_variable(&self, args: &[&str]) -> Output {
        mur_e2e::run(self.sb.mur_command(args).env("TMPDIR", &self.temp))
    }

    /// `${TMPDIR}/reactor-devtools-<uid>`: where a writer that finds no login's runtime
    /// directory (or looks for none, as a mur-server before 9184b33) announces itself.
    pub(crate) fn shared(&self) -> mur_lockfile::Registry {
        let uid = mur_lockfile::current_uid();
        mur_lockfile::Registry::at(self.temp.join(format!("reactor-devtools-{uid}")))
    }

    /// `${TMPDIR}/reactor-devtools-<uid>` made `mode` (0777: open to others' writes).
    pub(crate) fn chmod_shared(&self, mode: u32) {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = self.shared().dir().to_owned();
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }

    /// `body` run while `${TMPDIR}/reactor-devtools-<uid>` is open to others' writes
    /// (0777), the directory made the user's own (0700) again after.
    pub(crate) fn with_shared_open_to_others(&self, body: impl FnOnce()) {
        self.chmod_shared(0o777);
        body();
        self.chmod_shared(0o700);
    }

    /// The login's runtime directory comes to be (the user's own, 0700): the lockfile
    /// directory in it is where sessions write theirs from now on.
    pub(crate) fn log_in(&self) -> mur_lockfile::Registry {
        use std::os::unix::fs::PermissionsExt as _;
        let login = self.base.join(mur_lockfile::current_uid().to_string());
        std::fs::create_dir(&login).expect("the login's runtime directory");
        std::fs::set_permissions(&login, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        mur_lockfile::Registry::at(login.join("reactor-devtools"))
    }

    /// `mur-sample` for `project`, started in this environment, once it has announced
    /// itself in `registry`.
    pub(crate) fn start_sample(
        &self,
        project: &Path,
        registry: &mur_lockfile::Registry,
    ) -> (mur_e2e::Process, mur_lockfile::Lockfile) {
        let command = self
            .sb
            .session_command(&self.sb.artifacts().sample, project, &[]);
        let process = mur_e2e::Process::spawn(&mut self.env(command));
        let lockfile = registry.path_for(&self.sb.canonical_project(project));
        let lock =
            mur_e2e::wait_until("the sample's lockfile", || match registry.read(&lockfile) {
                mur_lockfile::ReadOutcome::Valid(lock) if lock.pid == process.pid() => Some(lock),
                _ => None,
            });
        (process, lock)
    }
}

/// Without `XDG_RUNTIME_DIR`, a session announced in `${TMPDIR}/reactor-devtools-<uid>`
/// (by a writer that knows nothing of the login's runtime directory) is found beside
/// those in the login's `/run/user/<uid>`: by a call with `--project`, as one of two
/// sessions, and over a stale lockfile of its project in the login's directory, which
/// goes on the way. With none left, the hint names both directories.
#[cfg(unix)]
#[test]
fn without_xdg_runtime_dir_sessions_in_the_shared_directory_are_found_beside_the_login_s() {
    let sb = Sandbox::new();
    let scrubbed = NoRuntimeVar::new(&sb);
    let older = sb.project("older");
    let (older_sample, older_lock) = scrubbed.start_sample(&older, &scrubbed.shared());
    let login = scrubbed.log_in();
    let (newer_sample, newer_lock) = scrubbed.start_sample(&sb.project("newer"), &login);
    // A stale lockfile of the older session's project where sessions write now.
    let stale = mur_lockfile::Lockfile::http(
        free_port(),
        dead_pid(),
        older_lock.project.clone(),
        "t".into(),
    );
    let stale = login.write(&stale).expect("a stale lockfile");

    let older_path = older.to_str().expect("utf-8");
    scrubbed
        .mur(&["devtools", "--project", older_path, "call", "version"])
        .assert_quiet_success()
        .assert_answered_by(older_sample.pid());
    assert!(!stale.exists(), "the stale lockfile goes on the way");
    // The proxy an MCP SDK starts so, for that project.
    let mut proxy = scrubbed.env(sb.mur_command(&["devtools", "--project", older_path, "proxy"]));
    proxy
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let (proxy, mut stdin) = mur_e2e::Process::spawn_with_stdin(&mut proxy);
    let requests = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"agent","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"version","arguments":{}}}"#,
    ];
    for line in requests {
        writeln!(stdin, "{line}").expect("a request");
    }
    drop(stdin);
    let out = proxy.wait_output();
    let answer = out.json_lines().into_iter().find(|m| m["id"] == 2);
    let pid = answer.map(|m| m["result"]["structuredContent"]["pid"].clone());
    assert_eq!(pid, Some(older_sample.pid().into()), "{out}");
    let out = scrubbed.mur(&["devtools", "call", "version"]);
    out.assert_code(1);
    out.assert_stderr_starts_with("error: 2 live devtools sessions found");
    for lock in [&older_lock, &newer_lock] {
        out.assert_stderr_contains(&format!("{}  {}", lock.project, lock.endpoint));
    }

    drop((older_sample, newer_sample));
    let out = scrubbed.mur(&["devtools", "call", "version"]);
    out.assert_code(4);
    out.assert_stderr_contains(&format!(
        "a session announces itself in `{}` or `{}`\n",
        login.dir().display(),
        scrubbed.shared().dir().display()
    ));
}

/// With `XDG_RUNTIME_DIR` set, a session announced in `${TMPDIR}/reactor-devtools-<uid>`
/// (by an app started without the variable: a service, `sudo -u`, an IDE started from a
/// desktop file) is found: by a call and by `session list`. A second session of its
/// project, in the variable's directory (each directory has a slot of its own), makes a
/// call ambiguous (exit 1, both listed, the first one's endpoint to paste) as two live
/// sessions are. With none left, the hint names both directories.
#[cfg(unix)]
#[test]
fn with_xdg_runtime_dir_a_session_announced_without_it_is_found() {
    let sb = Sandbox::new();
    let scrubbed = NoRuntimeVar::new(&sb);
    let project = sb.project("app");
    let project_arg = project.to_str().expect("utf-8");
    let (service, service_lock) = scrubbed.start_sample(&project, &scrubbed.shared());

    scrubbed
        .mur_with_the_variable(&["devtools", "call", "version"])
        .assert_quiet_success()
        .assert_answered_by(service.pid());
    let listed = scrubbed.mur_with_the_variable(&["devtools", "session", "list"]);
    listed.assert_code(0);
    let pids: Vec<serde_json::Value> = listed
        .json_lines()
        .iter()
        .map(|l| l["pid"].clone())
        .collect();
    assert_eq!(pids, [serde_json::Value::from(service.pid())], "{listed}");

    let shell = sb.start_sample(&project);
    let out =
        scrubbed.mur_with_the_variable(&["devtools", "--project", project_arg, "call", "version"]);
    out.assert_code(1).assert_stdout_is("");
    out.assert_stderr_starts_with("error: 2 live devtools sessions found; which one is meant?\n");
    for endpoint in [&service_lock.endpoint, &shell.lock.endpoint] {
        out.assert_stderr_contains(&format!("{}  {endpoint}", service_lock.project));
    }
    out.assert_stderr_contains("; for the first: `mur devtools --endpoint http://127.0.0.1:");

    drop((service, shell));
    let searched = format!(
        "`{}` or `{}`",
        sb.lockfile_dir().display(),
        scrubbed.shared().dir().display()
    );
    let out = scrubbed.mur_with_the_variable(&["devtools", "call", "version"]);
    out.assert_code(4);
    out.assert_stderr_contains(&format!("a session announces itself in {searched}\n"));
    scrubbed
        .mur_with_the_variable(&["devtools", "session", "list"])
        .assert_code(4)
        .assert_stderr_is(format!(
            "error: no running devtools session found\n\
             hint: sessions announce themselves in {searched}\n"
        ));
}

/// A bridge over `mur-sample --stdio` for `project`, started as an app is without
/// `XDG_RUNTIME_DIR` (`scrubbed`; `None`: with it, as the user's shell starts it), with
/// `extra` options and `unset` variables of its environment unset: its session line,
/// and its pid (killed on drop, if it still runs then).
#[cfg(unix)]
fn sample_bridge(
    scrubbed: Option<&NoRuntimeVar>,
    sb: &Sandbox,
    project: &Path,
    extra: &[&str],
    unset: &[&str],
) -> (serde_json::Value, mur_e2e::Adopted) {
    let command = sb.mur_command(&["devtools", "bridge", "--project"]);
    let mut command = match scrubbed {
        Some(scrubbed) => scrubbed.env(command),
        None => command,
    };
    command.arg(project).args(extra).arg("--");
    let inner = sb.project("inner");
    command
        .arg(mur_e2e::sample_bin())
        .args(["--stdio", "--project"])
        .arg(inner);
    for name in unset {
        command.env_remove(name);
    }
    let line = mur_e2e::run(&mut command).assert_code(0).json();
    let pid = line["pid"].as_u64().expect("pid") as u32;
    (line, mur_e2e::Adopted(pid))
}

/// With `XDG_RUNTIME_DIR` set, `bridge stop` stops a bridge started without it (by a
/// service, an IDE started from a desktop file), announced in
/// `${TMPDIR}/reactor-devtools-<uid>`: the only one, or the one of `--project` (it said
/// "no bridge is running"); a call for its project then says when and why it stopped,
/// from its log there (it said nothing of it). With none left, "no bridge" names both
/// directories searched; with that directory open to others' writes, why it was not searched.
#[cfg(unix)]
#[test]
fn with_xdg_runtime_dir_bridge_stop_stops_a_bridge_announced_without_it() {
    let sb = Sandbox::new();
    let (scrubbed, shared, project) = bridged(&sb);
    let project_arg = project.to_str().expect("utf-8");
    let canonical = sb.canonical_project(&project);
    let lockfile = shared.path_for(&canonical);
    for by_project in [&[][..], &["--project", project_arg][..]] {
        let (_, bridge) = sample_bridge(Some(&scrubbed), &sb, &project, &[], &[]);
        assert!(lockfile.exists(), "announced in the shared directory");
        scrubbed
            .mur_with_the_variable(&[&["devtools"][..], by_project, &["bridge", "stop"]].concat())
            .assert_code(0)
            .assert_stderr_is(format!(
                "stopped the bridge of `{canonical}` (pid {})\n",
                bridge.0
            ));
        assert!(!lockfile.exists(), "{by_project:?}");
    }
    let searched = format!(
        "`{}` or `{}`",
        sb.lockfile_dir().display(),
        shared.dir().display()
    );
    // A call for the project says when and why its bridge stopped, from the log beside
    // its lockfile in the shared directory, and how to start it again: that alone, not
    // "start the app" after it, a second remedy and an app's (review 408 #5).
    let out =
        scrubbed.mur_with_the_variable(&["devtools", "--project", project_arg, "call", "version"]);
    out.assert_code(4);
    let stopped = format!(
        "error: no live devtools session for project `{canonical}`\n\
         hint: this project's bridge stopped at "
    );
    assert_eq!(
        mur_e2e::after_stop_time(&out.stderr, &stopped),
        format!(
            "stopped by a signal (`bridge stop`, Ctrl+C); start it again: `{}mur devtools bridge \
             --project {canonical} -- {} --stdio --project {}`\n",
            crate::servers::from_the_root(&sb),
            mur_e2e::sample_bin().display(),
            sb.canonical_project(&sb.project("inner")),
        ),
        "{out}"
    );
    scrubbed
        .mur_with_the_variable(&["devtools", "bridge", "stop"])
        .assert_code(4)
        .assert_stderr_is(format!(
            "error: no bridge is running\nhint: a bridge announces itself in {searched}\n"
        ));
    scrubbed
        .mur_with_the_variable(&["devtools", "--project", project_arg, "bridge", "stop"])
        .assert_code(4)
        .assert_stderr_is(format!(
            "error: no bridge is running for `{canonical}`\n\
             hint: a bridge announces itself in {searched}\n"
        ));
    let (_, without) = sample_bridge(Some(&scrubbed), &sb, &project, &[], &[]);
    // A second bridge of the project, in the variable's directory (each directory has a
    // slot of its own): `--project` cannot tell them apart; each is named with its pid.
    let (line, with) = sample_bridge(None, &sb, &project, &[], &[]);
    scrubbed
        .mur_with_the_variable(&["devtools", "--project", project_arg, "bridge", "stop"])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: 2 bridges are running: `{canonical}` (pid {}, in `{}`), `{canonical}` \
             (pid {}, in `{}`)\n\
             hint: stop the one meant with `kill PID`: a bridge ends on SIGTERM as `bridge stop` \
             ends it\n",
            with.0,
            sb.lockfile_dir().display(),
            without.0,
            shared.dir().display()
        ));
    assert_eq!(line["pid"], with.0, "{line}");
    // The shared directory open to others' writes is not searched: the bridge of the
    // variable's directory is the only one, then none is, and the hint says why.
    scrubbed.with_shared_open_to_others(|| {
        scrubbed
            .mur_with_the_variable(&["devtools", "--project", project_arg, "bridge", "stop"])
            .assert_code(0)
            .assert_stderr_is(format!(
                "stopped the bridge of `{canonical}` (pid {})\n",
                with.0
            ));
        scrubbed
            .mur_with_the_variable(&["devtools", "bridge", "stop"])
            .assert_code(4)
            .assert_stderr_is(format!(
                "error: no bridge is running\n\
             hint: a bridge announces itself in `{}`\n\
             hint: refusing lockfile directory `{}`: writable by group or others (mode 777): \
             a bridge announced there is not stopped\n",
                sb.lockfile_dir().display(),
                shared.dir().display()
            ));
    });
}

/// A sandbox's [`NoRuntimeVar`], its shared directory and the project `bridged`.
#[cfg(unix)]
fn bridged(sb: &Sandbox) -> (NoRuntimeVar<'_>, mur_lockfile::Registry, std::path::PathBuf) {
    let scrubbed = NoRuntimeVar::new(sb);
    let shared = scrubbed.shared();
    (scrubbed, shared, sb.project("bridged"))
}

/// A proxy (the agent host's, `XDG_RUNTIME_DIR` set) in front of a bridge started
/// without the variable, announced in `${TMPDIR}/reactor-devtools-<uid>`: once the bridge
/// is stopped, the proxy says when and why, from the bridge's log beside the lockfile it
/// was found by, and the command that starts it again (it looked beside the lockfile
/// path of its own directory, found no log, and guessed at why).
#[cfg(unix)]
#[test]
fn a_proxy_whose_bridge_announced_without_the_variable_stopped_says_when_and_why() {
    let sb = Sandbox::new();
    let scrubbed = NoRuntimeVar::new(&sb);
    let project = sb.project("bridged");
    let (_, _bridge) = sample_bridge(Some(&scrubbed), &sb, &project, &[], &[]);
    let stdout = sb.root().join("proxy.out");
    let mut command = sb.mur_command(&["devtools", "proxy"]);
    command
        .stdout(std::fs::File::create(&stdout).expect("stdout file"))
        .stderr(std::process::Stdio::piped());
    let (proxy, mut stdin) = mur_e2e::Process::spawn_with_stdin(&mut command);
    let answer = |id: u64| {
        mur_e2e::wait_until(&format!("the answer to request {id}"), || {
            let text = std::fs::read_to_string(&stdout).unwrap_or_default();
            text.lines()
                .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
                .find(|m| m["id"] == id)
        })
    };
    let version = |id: u64| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"version","arguments":{{}}}}}}"#
        )
    };
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"agent","version":"1"}}}}}}"#
    )
    .expect("initialize");
    writeln!(stdin, "{}", version(2)).expect("a call");
    assert!(answer(2)["result"].is_object(), "{}", answer(2));
    scrubbed
        .mur_with_the_variable(&["devtools", "bridge", "stop"])
        .assert_code(0);
    writeln!(stdin, "{}", version(3)).expect("a call");
    let answer = answer(3);
    drop(stdin);
    proxy.wait_output();
    let message = answer["error"]["message"].as_str().expect("an error");
    let canonical = sb.canonical_project(&project);
    let prefix = format!(
        "the bridge of project `{canonical}`, whose server this proxy forwards to, stopped at "
    );
    assert_eq!(
        mur_e2e::after_stop_time(message, &prefix),
        format!(
            "stopped by a signal (`bridge stop`, Ctrl+C)\n\
             hint: start it again: `{}mur devtools bridge --project {canonical} -- {} --stdio \
             --project {}`; the proxy forwards to it once it runs",
            crate::servers::from_the_root(&sb),
            mur_e2e::sample_bin().display(),
            sb.canonical_project(&sb.project("inner"))
        )
    );
}

/// A bridge started without `XDG_RUNTIME_DIR` and without a home (a service) records the
/// calls it serves (`--usage`) in `usage/` of its lockfile directory,
/// `${TMPDIR}/reactor-devtools-<uid>`: `usage report` with the variable set reads them
/// there (it read only its own lockfile directory's) and says where; with that directory
/// open to others' writes, it says why they are not read.
#[cfg(unix)]
#[test]
fn with_xdg_runtime_dir_usage_report_reads_what_a_session_recorded_in_the_shared_directory() {
    let sb = Sandbox::new();
    let (scrubbed, shared, project) = bridged(&sb);
    let project_arg = project.to_str().expect("utf-8");
    let unset = ["HOME", "XDG_STATE_HOME"];
    let (line, _bridge) = sample_bridge(Some(&scrubbed), &sb, &project, &["--usage"], &unset);
    let recorded = shared.dir().join("usage");
    // `<hash>.jsonl`, the lockfile's name.
    let lockfile = shared.path_for(&sb.canonical_project(&project));
    let log = recorded.join(
        lockfile
            .with_extension("jsonl")
            .file_name()
            .expect("a name"),
    );
    assert_eq!(
        line["usageLog"].as_str().map(Path::new),
        Some(log.as_path()),
        "{line}"
    );
    for _ in 0..2 {
        scrubbed
            .mur_with_the_variable(&["devtools", "--project", project_arg, "call", "version"])
            .assert_code(0);
    }
    let served = |report: &Output| -> Vec<(serde_json::Value, serde_json::Value)> {
        let report = report.json();
        let rows = report["toolsServed"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        rows.iter()
            .map(|row| (row["name"].clone(), row["calls"].clone()))
            .collect()
    };
    let report = scrubbed.mur_with_the_variable(&["devtools", "usage", "report", "--json"]);
    report.assert_code(0).assert_stderr_is("");
    assert_eq!(served(&report), [("version".into(), 2.into())], "{report}");
    let text = scrubbed.mur_with_the_variable(&["devtools", "usage", "report"]);
    text.assert_code(0).assert_stderr_is("");
    let header = format!(
        "(with the tool calls the sessions served, as 1 log in `{}` records them)\n",
        recorded.display()
    );
    assert!(text.stdout.contains(&header), "{text}");

    scrubbed.with_shared_open_to_others(|| {
        let refused = scrubbed.mur_with_the_variable(&["devtools", "usage", "report", "--json"]);
        refused.assert_code(0).assert_stderr_is(format!(
            "warning: the sessions' usage logs are not read: refusing lockfile directory `{}`: \
         writable by group or others (mode 777)\n",
            shared.dir().display()
        ));
        assert_eq!(served(&refused), [], "{refused}");
    });
}

/// `${TMPDIR}/reactor-devtools-<uid>` that others can write to, or that another user
/// made (anyone can, first, in a shared `/tmp`), is not searched: the session announced
/// there is not found, a one-line warning says why (once, however often discovery
/// looks), and the hint names only the directory searched.
#[cfg(unix)]
#[test]
fn a_shared_directory_others_can_write_to_or_another_user_made_is_refused_with_a_warning() {
    let sb = Sandbox::new();
    let scrubbed = NoRuntimeVar::new(&sb);
    let shared = scrubbed.shared();
    let (_service, _) = scrubbed.start_sample(&sb.project("app"), &shared);
    let refused = |why: &str| {
        format!(
            "warning: refusing lockfile directory `{}`: {why}\n\
             error: no running devtools session found\n\
             {}",
            shared.dir().display(),
            start_the_app(&format!("`{}`", sb.lockfile_dir().display()))
        )
    };
    scrubbed.with_shared_open_to_others(|| {
        scrubbed
            .mur_with_the_variable(&["devtools", "call", "version"])
            .assert_code(4)
            .assert_stderr_is(refused("writable by group or others (mode 777)"));
        // Said once, though discovery looks again and again while a session is on its way
        // (its slot held, no lockfile yet).
        let starting = sb.project("starting");
        sb.registry().ensure_dir().expect("lockfile directory");
        let slot = mur_lockfile::SlotLock::try_acquire(&sb.lockfile_path(&starting))
            .expect("lock")
            .expect("a free slot");
        let out = scrubbed.mur_with_the_variable(&["devtools", "call", "version"]);
        out.assert_code(4).assert_stderr_starts_with(&format!(
            "warning: refusing lockfile directory `{}`: writable by group or others (mode 777)\n\
         error: no running devtools session found\n\
         hint: a session holds its project's slot",
            shared.dir().display()
        ));
        drop(slot);
    });
    // Another user's: only root can give a directory away to make one.
    if mur_lockfile::current_uid() == 0 {
        std::os::unix::fs::chown(shared.dir(), Some(65534), None).expect("chown");
        scrubbed
            .mur_with_the_variable(&["devtools", "call", "version"])
            .assert_code(4)
            .assert_stderr_is(refused("owned by uid 65534, not by you (uid 0)"));
        std::os::unix::fs::chown(shared.dir(), Some(0), None).expect("chown");
    }
}

/// The error for `--project TYPED`, a project that exists but whose session is not
/// running, while only `others` run: start the app (again, when `ended` says how its
/// session ended), the others listed only as what else runs, no "did you mean" one
/// of them (R1 M1: an agent followed it into another project's app).
fn not_running(sb: &Sandbox, typed: &str, others: &[&mur_e2e::Session], ended: &str) -> String {
    format!(
        "error: no live devtools session for project `{typed}`\n{}{ended}{}\
         hint: the sessions listed are of other projects, not this one\n",
        session_rows(others),
        start_the_app(&sb.registry().searched()),
    )
}

/// Of two apps with project files of one name (`a/App.csproj`, `b/App.csproj`), `b`'s
/// exits: `--project b/App.csproj` is told to start it, not pointed at `a`'s session,
/// whether `b` exited cleanly or was killed (then, once, what its lockfile said). A
/// path that is no file stays a slip for `a`'s, beside it or of its name.
#[test]
fn a_project_whose_app_exited_is_told_to_start_it_not_pointed_at_another_of_its_name() {
    let sb = Sandbox::new();
    let a = sb.start_sample(&sb.project("a"));
    let b_project = sb.project("b");
    let b = sb.start_sample(&b_project);
    let typed = sb.canonical_project(&b_project);
    b.signal("TERM");
    assert!(b.wait_status().success(), "a clean exit");
    let out = sb.mur(&["devtools", "--project", "b/App.csproj", "call", "version"]);
    out.assert_code(4).assert_stdout_is("");
    out.assert_stderr_is(not_running(&sb, &typed, &[&a], ""));

    // Killed: `--project typed` (relative to the sandbox) is told the session ended, and how.
    let killed = |project: &std::path::Path, typed: &str| {
        let app = sb.start_sample(project);
        let pid = app.pid();
        app.kill();
        let out = sb.mur(&["devtools", "--project", typed, "call", "version"]);
        out.assert_code(4).assert_stdout_is("");
        let ended = format!(
            "hint: this project's session (pid {pid}) has ended without withdrawing its \
             lockfile: it crashed or was killed\n"
        );
        let canonical = sb.canonical_project(project);
        out.assert_stderr_is(not_running(&sb, &canonical, &[&a], &ended));
    };
    killed(&b_project, "b/App.csproj");
    // The stale lockfile went on that call's way: the next is told to start the app.
    let again = sb.mur(&["devtools", "--project", "b/App.csproj", "call", "version"]);
    again.assert_code(4);
    again.assert_stderr_is(not_running(&sb, &typed, &[&a], ""));

    // So is one whose file does not exist (a bridge's; README's `/tmp/demo/App.csproj`),
    // once its session ran: it was no slip for `a`'s (user audit AU6 1: a note said it
    // ended, then "did you mean" sent the agent to drive `a`).
    std::fs::create_dir_all(sb.root().join("d")).expect("mkdir d");
    killed(&sb.root().join("d/App.csproj"), "d/App.csproj");

    for slip in ["a/App.cproj", "c/App.csproj"] {
        let out = sb.mur(&["devtools", "--project", slip, "call", "version"]);
        out.assert_code(4).assert_stdout_is("");
        let typed = sb.canonical_project(&sb.root().join(slip));
        out.assert_stderr_is(other_projects(&typed, &[&a], &a));
    }
}

/// A third-party MCP server (the Python SDK's FastMCP) for `--auto` to scan: the
/// server, its endpoint, the `--auto-range` of that port alone (other tests'
/// servers listen on ports near it) and what `--auto` says of it; `None` (skipped)
/// where the SDK is not installed.
struct Scanned {
    server: mur_e2e::Process,
    endpoint: String,
    range: String,
    said: String,
}

fn scanned_mcp_server(sb: &Sandbox) -> Option<Scanned> {
    let python = crate::interop_python::python_or_skip("interop-venv", "1", "requirements.txt")?;
    let (server, endpoint, _log) = crate::servers::session_server(sb, &python, 0);
    let port = endpoint
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .expect("a loopback endpoint");
    let said = format!(
        "port {port} answered HTTP, not as a devtools session: if it is an MCP server, \
         reach it with `--endpoint {endpoint}`"
    );
    Some(Scanned {
        server,
        range: format!("{port}-{port}"),
        said,
        endpoint,
    })
}

/// `--auto` finds devtools sessions only; a third-party MCP server (the Python SDK's
/// FastMCP) on a port it scanned is named, with the `--endpoint` that reaches it, not
/// only "no running devtools session found" (a user audit, two MCP servers scanned for).
/// `session list --auto` says of it what a call's `--auto` says: under "no session"
/// (exit 4), or in a `note:` beside the sessions it lists (stdout the list alone). It
/// named neither: a user scanning for their FastMCP server was told nothing of it. One
/// server serves both commands' checks (a FastMCP server takes a second to start).
#[test]
fn auto_and_session_list_name_an_mcp_server_they_scanned_with_the_endpoint_that_reaches_it() {
    let sb = Sandbox::new();
    // Bound whole: a pattern taking fields out of it would drop (kill) the server now.
    let Some(Scanned {
        endpoint,
        range,
        said,
        server: _server,
    }) = scanned_mcp_server(&sb)
    else {
        return;
    };
    let out = sb.mur(&["devtools", "--auto-range", &range, "call", "session"]);
    out.assert_code(4).assert_stdout_is("");
    out.assert_stderr_is(format!(
        "error: no running devtools session found\n\
         hint: `--auto` scanned 127.0.0.1 ports {range} for devtools sessions\n\
         hint: {said}\n"
    ));
    // The endpoint named reaches it.
    let out = sb.devtools_at(&endpoint, &["call", "session"]);
    out.assert_code(0);
    assert_ne!(out.tool_text(0), "", "{out}");

    let out = sb.mur(&["devtools", "--auto-range", &range, "session", "list"]);
    out.assert_code(4).assert_stdout_is("");
    out.assert_stderr_is(format!(
        "error: no running devtools session found\n\
         hint: sessions announce themselves in {}\n\
         hint: `--auto` scanned 127.0.0.1 ports {range} for devtools sessions\n\
         hint: {said}\n",
        sb.registry().searched()
    ));
    let app = sb.start_sample(&sb.project("app"));
    let out = sb.mur(&["devtools", "--auto-range", &range, "session", "list"]);
    out.assert_code(0)
        .assert_stderr_is(format!("note: {said}\n"));
    assert_eq!(
        out.json_lines(),
        [serde_json::to_value(&app.lock).expect("lock json")]
    );
}

/// A live session beside more silent ones (processes that accept connections and never
/// answer: stopped, or lockfiles planted so) than probes may be in flight is listed:
/// each probe gets its share of the probe timeout, where the silent ones held every
/// place to its end and the live session, probed after them, was never probed (left
/// out of `session list`, exit 2). Under `ulimit -n 64`, 32 probes are in flight.
#[cfg(unix)]
#[test]
fn a_live_session_beside_more_silent_ones_than_probes_in_flight_is_listed() {
    let (sb, app) = Sandbox::with_app();
    let pid = std::process::id();
    let silent: Vec<(std::net::TcpListener, u16)> = (0..32).map(|_| silent_listener()).collect();
    // Named to be probed before the live session's lockfile (named after its hash).
    let said: Vec<(String, String)> = silent
        .iter()
        .enumerate()
        .map(|(n, (_, port))| {
            let project = format!("/silent/{n}/App.csproj");
            let lock = mur_lockfile::Lockfile::http(*port, pid, project.clone(), "t".into());
            let path = sb.lockfile_dir().join(format!("{n:016x}.json"));
            std::fs::write(&path, serde_json::to_string(&lock).expect("json")).expect("plant");
            (
                format!(
                    "warning: the session for `{project}` (pid {pid}) at `{}` runs but did not \
                     answer the probe within ",
                    lock.endpoint
                ),
                " ms, its share of the 1500 ms that the probes of 33 sessions had".to_owned(),
            )
        })
        .collect();
    let out = mur_e2e::run(&mut sb.shell_command("ulimit -n 64 && exec mur devtools session list"));
    out.assert_code(0).assert_stdout_is(format!(
        "{}\n",
        serde_json::to_string(&app.lock).expect("json")
    ));
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), said.len(), "{out}");
    for (line, (start, end)) in lines.iter().zip(&said) {
        let ms = line
            .strip_prefix(start.as_str())
            .and_then(|rest| rest.strip_suffix(end.as_str()))
            .unwrap_or_else(|| panic!("{line:?} is not {start:?}…{end:?}\n{out}"));
        assert!(ms.parse::<u32>().is_ok_and(|ms| ms <= 1500), "{line}");
    }
    drop(silent);
}

/// `--auto` finds a live session whose port comes after more silent listeners (accepting
/// connections, never answering) than probes may be in flight: each port gets a turn of
/// the probe timeout. One deadline over them all let the first 256 hold every place to
/// its end, and the ports after them were never probed: no session (exit 4).
#[test]
fn auto_finds_a_session_past_more_silent_listeners_than_probes_in_flight() {
    let sb = Sandbox::new();
    let count = mur_lockfile::liveness::PROBES_IN_FLIGHT + 24;
    // Below the session's port, so probed before it (ports go in order); all outside the
    // ports the kernel hands out, so that no other test's listener is scanned, and no
    // port another test found free is taken: the session listens just above them.
    let mut silent = silent_block(u16::try_from(count + 1).expect("a count"), handed_out());
    let above = silent
        .pop()
        .expect("a listener")
        .local_addr()
        .expect("addr");
    let (app, port) = sb.start_sample_on_one_of(&sb.project("app"), (above.port()..).take(10));
    std::fs::remove_file(&app.lockfile).expect("delete the lockfile");
    let lowest = silent[0].local_addr().expect("addr").port();
    let range = format!("{lowest}-{port}");
    let project = app.project.to_str().expect("utf-8");
    // A port between the block and the session's (taken when it started) may be another
    // session's: `--project` picks ours.
    let out = sb.mur(&[
        "devtools",
        "--auto-range",
        &range,
        "--project",
        project,
        "call",
        "version",
    ]);
    out.assert_answered_by(app.pid());
    drop(silent);
}

/// The ports the kernel hands out ([`silent_block`] keeps out of them).
pub(crate) fn handed_out() -> std::ops::RangeInclusive<u16> {
    let range = mur_core::settings::PortRange::ephemeral();
    range.first..=range.last
}

/// `--timeout` bounds the read of the lockfile directory itself: ten thousand files took
/// more than half a second to read whatever the bound (the read is no async work, and
/// the timer around it fired only once it was done), and `--timeout 1` then said "no
/// session" (exit 4) rather than that it ran out of time (exit 2).
#[test]
fn timeout_bounds_the_read_of_a_large_lockfile_directory() {
    let sb = Sandbox::new();
    let dir = sb.lockfile_dir();
    sb.registry().ensure_dir().expect("the lockfile directory");
    let lock = mur_lockfile::Lockfile::http(
        free_port(),
        dead_pid(),
        "/gone/App.csproj".into(),
        "t".into(),
    );
    let text = serde_json::to_string(&lock).expect("json");
    for n in 0..10_000 {
        std::fs::write(dir.join(format!("{n:016x}.json")), &text).expect("plant");
    }
    sb.mur(&["devtools", "--timeout", "1", "session", "list"])
        .assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is("error: reading the sessions took longer than 1 ms\n");
    sb.mur(&["devtools", "--timeout", "1", "call", "version"])
        .assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(
            "error: finding the session took longer than 1 ms\n\
             hint: give it longer: `mur devtools --timeout 10000 …`; `-v` shows what discovery \
             was waiting for, `--endpoint URL` skips it\n",
        );
}

/// A lockfile directory that is a link is refused with a hint that can fix it: remove
/// the link. `chmod 700` it, the hint said, which changes what the link names and leaves
/// the link refused.
#[cfg(unix)]
#[test]
fn a_lockfile_directory_that_is_a_link_is_told_to_remove_the_link() {
    let sb = Sandbox::new();
    let real = sb.dir("elsewhere");
    std::os::unix::fs::symlink(&real, sb.lockfile_dir()).expect("symlink");
    let dir = sb.lockfile_dir();
    for args in [
        &["devtools", "call", "version"][..],
        &["devtools", "session", "list"],
    ] {
        sb.mur(args)
            .assert_code(4)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: refusing lockfile directory `{0}`: it is a symbolic link\n\
                 hint: a lockfile directory must be a directory of yours, not a link: remove the \
                 link (`rm {0}`), and the next session makes the directory\n",
                dir.display()
            ));
    }
}

// ---- A session that refuses mur (HTTP 401), a project's own lockfile skipped, and an
// `--endpoint` whose loopback address is not written out (review 408, #1, #5, #10).

/// A loopback server that answers the devtools probe as the session of process `pid`
/// and every other request with HTTP 401 and `challenge` as its `WWW-Authenticate`.
fn refusing_session(pid: u32, challenge: &'static str) -> Stub {
    Stub::serve(move |req| match req.method.as_str() {
        "GET" => mur_e2e::stub::Reply::json(
            200,
            &serde_json::json!({ "schema": "reactor-devtools-mcp/1", "pid": pid }),
        ),
        _ => mur_e2e::stub::Reply::Respond {
            status: 401,
            headers: vec![("www-authenticate".into(), challenge.into())],
            body: br#"{"error":"unauthorized"}"#.to_vec(),
        },
    })
}

/// An app's own session (no sidecar beside its lockfile) that answers 401 is said to
/// have refused mur, with no `bridge stop` offered: it was told "a bridge takes requests
/// only with the secret in its sidecar …; stop the bridge (`mur devtools bridge stop
/// --project …`)", which then refused it as no bridge.
#[test]
fn an_apps_session_that_answers_401_is_offered_no_bridge_stop() {
    let sb = Sandbox::new();
    let pid = std::process::id();
    let app = refusing_session(pid, "Bearer");
    let project = sb.project("app");
    let canonical = sb.canonical_project(&project);
    sb.plant_http_lockfile(&canonical, pid, app.port());
    call_version_for(&sb, &project)
        .assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` refused mur's request (HTTP 401): mur has no secret for it, and sent \
             none\n\
             hint: no sidecar beside its lockfile names its process: an app's own session asks \
             for no secret, and mur runs no OAuth flow for a session found by its lockfile (it \
             does for `--endpoint URL`); a bridge whose sidecar is gone is stopped with `kill \
             {pid}` and started again\n",
            app.endpoint()
        ));
}

/// A bridge whose sidecar mur does not trust (open to others): the call's hint gives the
/// `kill PID` that `bridge stop`'s refusal gives (it offered `bridge stop`, which then
/// refused), and that refusal no longer says "is not a bridge" above "if the bridge is
/// yours". Its process is a `sleep` of the test's: nothing signals it.
#[cfg(unix)]
#[test]
fn a_bridge_whose_sidecar_is_untrusted_is_told_to_be_stopped_with_kill() {
    use std::os::unix::fs::PermissionsExt as _;
    let sb = Sandbox::new();
    let mut sleeper = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .expect("sleep");
    let pid = sleeper.id();
    let bridge = refusing_session(pid, r#"Bearer realm="mur-bridge""#);
    let project = sb.project("bridged");
    let canonical = sb.canonical_project(&project);
    let lockfile = sb.plant_http_lockfile(&canonical, pid, bridge.port());
    let lock = sb.read_lockfile(&project).expect("the lockfile");
    let sidecar = lockfile.with_extension("bridge");
    let fields = serde_json::json!({
        "schema": "mur-bridge/1", "pid": pid, "startedAt": lock.started_at,
        "log": lockfile.with_extension("bridge.log"), "command": ["server"],
        "secret": "00ff",
    });
    std::fs::write(&sidecar, fields.to_string()).expect("the sidecar");
    std::fs::set_permissions(&sidecar, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let why = format!(
        "`{}` is open to group or others (mode 644), so its secret is no secret",
        sidecar.display()
    );
    let call = call_version_for(&sb, &project);
    let stop = sb.mur(&[
        "devtools",
        "--project",
        project.to_str().expect("utf-8"),
        "bridge",
        "stop",
    ]);
    let running = sleeper.try_wait().expect("wait").is_none();
    let _ = sleeper.kill();
    let _ = sleeper.wait();
    assert!(running, "the process was signalled");
    call.assert_code(2).assert_stderr_is(format!(
        "error: `{}` refused mur's request (HTTP 401): it is a bridge (`mur devtools bridge`), \
         which takes requests only with its secret, and mur has none for it\n\
         hint: mur did not read the bridge's secret: {why}; if the bridge is yours, stop it \
         with `kill {pid}` (`bridge stop` signals nothing by a sidecar it does not trust) and \
         start it again\n",
        bridge.endpoint()
    ));
    stop.assert_code(1).assert_stderr_is(format!(
        "error: the session of `{canonical}` (pid {pid}) is no bridge `bridge stop` may \
         signal: it signals only a bridge whose sidecar it trusts\n\
         hint: its sidecar is not trusted, so nothing is signalled: {why}\n\
         hint: if the bridge is yours, stop it with `kill {pid}`; `session clean` then removes \
         the sidecar\n"
    ));
}

/// When `--project`'s own lockfile was skipped (its endpoint answered for another pid;
/// it is open to others' writes), "no session" points at the warning that said so: "start
/// the app" sent the user to start a second one of an app that runs.
#[cfg(unix)]
#[test]
fn no_session_of_a_project_whose_lockfile_was_skipped_points_at_the_warning() {
    use std::os::unix::fs::PermissionsExt as _;
    let sb = Sandbox::new();
    let pid = std::process::id();
    let project = sb.project("app");
    let canonical = sb.canonical_project(&project);
    let skipped = |path: &Path| {
        format!(
            "error: no live devtools session for project `{canonical}`\n\
             hint: this project's lockfile `{}` was skipped, as the `warning:` above says: its \
             app may well be running, but mur uses no session by a lockfile it skips; see to \
             what the warning names, then run the command again\n",
            path.display()
        )
    };
    // Its endpoint answers the probe for another process.
    let other = refusing_session(1, "Bearer");
    let path = sb.plant_http_lockfile(&canonical, pid, other.port());
    call_version_for(&sb, &project)
        .assert_code(4)
        .assert_stderr_is(format!(
            "warning: skipping lockfile `{}`: pid {pid} runs, but `{}` answered for pid 1, not \
             {pid}\n{}",
            path.display(),
            other.endpoint(),
            skipped(&path)
        ));
    // Open to others' writes: refused unread.
    let app = refusing_session(pid, "Bearer");
    let path = sb.plant_http_lockfile(&canonical, pid, app.port());
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    call_version_for(&sb, &project)
        .assert_code(4)
        .assert_stderr_is(format!(
            "warning: refusing lockfile `{}`: writable by group or others (mode 666)\n{}",
            path.display(),
            skipped(&path)
        ));
    assert!(app.requests().is_empty(), "{:?}", app.requests());
}

/// `call version` at `http://HOST:PORT/mcp` is refused where `--endpoint` is checked,
/// exit 1, saying the host is written so, `why` that is not dialed, and the address
/// `meant` to write.
#[track_caller]
fn endpoint_refused_naming_it(sb: &Sandbox, port: u16, (host, why, meant): (&str, &str, &str)) {
    let endpoint = format!("http://{host}:{port}/mcp");
    sb.devtools_at(&endpoint, &["call", "version"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `--endpoint {endpoint}` writes its loopback host as `{host}`, {why}\n\
             hint: write the address it stands for: `--endpoint http://{meant}:{port}/mcp`\n"
        ));
}

/// A loopback address the URL parser reads but not written out (`127.1`, one number, hex,
/// a trailing dot) is refused where `--endpoint` is checked, exit 1 as any `--endpoint`
/// mur will not reach, naming the address to write; it was sent to the dialer, which
/// takes no host name: "could not connect", exit 2 ("transport, retry").
#[test]
fn an_endpoint_whose_loopback_address_is_not_written_out_is_refused_naming_it() {
    let sb = Sandbox::new();
    let server = Stub::answering(serde_json::json!({}));
    let port = server.port();
    let why = "which mur does not dial: it looks up no host names, and reads an address only \
               written out in full";
    for host in ["127.1", "2130706433", "0x7f000001", "127.0.0.1."] {
        endpoint_refused_naming_it(&sb, port, (host, why, "127.0.0.1"));
    }
    assert!(server.requests().is_empty(), "{:?}", server.requests());
}

// helper 424: `--endpoint` whose loopback host the check does not take as written
// (`localhost.`, `[::ffff:127.0.0.1]`): named as `127.1` is, not "not a loopback address".

/// `localhost.` and an IPv4 loopback address mapped into IPv6 are loopback, but written in
/// a form mur does not contact: refused at once (exit 1) naming the address to write,
/// where they were called "not a loopback address" with a hint to use loopback.
#[test]
fn an_endpoint_whose_loopback_host_is_written_otherwise_is_refused_naming_it() {
    let sb = Sandbox::new();
    let server = Stub::answering(serde_json::json!({}));
    let port = server.port();
    for (host, why, meant) in [
        (
            "localhost.",
            "which mur does not dial: it looks up no host names, and takes `localhost` only as \
             it is",
            "localhost",
        ),
        (
            "[::ffff:127.0.0.1]",
            "an IPv4 address mapped into IPv6, which mur does not take for loopback: only \
             127.0.0.0/8, ::1 and localhost are contacted",
            "127.0.0.1",
        ),
    ] {
        endpoint_refused_naming_it(&sb, port, (host, why, meant));
    }
    assert!(server.requests().is_empty(), "{:?}", server.requests());
}

// helper 504: a lockfile whose endpoint writes its loopback host in a form mur does not
// contact is skipped as `--endpoint` with it is refused, naming the file and the form.

/// A lockfile of a running process whose endpoint writes loopback as `127.1`,
/// `localhost.` or `[::ffff:127.0.0.1]` is skipped with one line naming the file and
/// the host as written, as any lockfile whose endpoint mur does not contact: nothing is
/// sent, and the call finds no session (exit 4). `127.1` was "could not connect: mur
/// looks up no host names", `localhost.` "not a loopback address".
#[test]
fn a_lockfile_whose_loopback_host_is_written_otherwise_is_skipped_naming_it() {
    let sb = Sandbox::new();
    let pid = std::process::id();
    let server = refusing_session(pid, "Bearer");
    let port = server.port();
    for (host, why) in [
        (
            "127.1",
            "which mur does not dial: it looks up no host names, and reads an address only \
             written out in full",
        ),
        (
            "localhost.",
            "which mur does not dial: it looks up no host names, and takes `localhost` only as \
             it is",
        ),
        (
            "[::ffff:127.0.0.1]",
            "an IPv4 address mapped into IPv6, which mur does not take for loopback: only \
             127.0.0.0/8, ::1 and localhost are contacted",
        ),
    ] {
        let project = "/written/App.csproj";
        let endpoint = format!("http://{host}:{port}/mcp");
        let mut lock = mur_lockfile::Lockfile::http(port, pid, project.into(), "b".into());
        lock.endpoint = endpoint.clone();
        let path = sb.plant_lockfile(project, &serde_json::to_string(&lock).expect("json"));
        let out = sb.mur(&["devtools", "call", "version"]);
        out.assert_code(4);
        assert_eq!(
            out.stderr.lines().next(),
            Some(
                format!(
                    "warning: skipping lockfile `{}`: pid {pid} runs, but `{endpoint}` writes \
                     its loopback host as `{host}`, {why}",
                    path.display()
                )
                .as_str()
            ),
            "{out}"
        );
        assert!(path.exists(), "a lockfile whose process runs is left alone");
    }
    assert!(server.requests().is_empty(), "{:?}", server.requests());
}
