//! The real `mur-sample` binary: it announces itself with a lockfile and answers a
//! `tools/call` over loopback HTTP with the sample app's tools.

use mur_testkit::{Adopted, Sandbox, mcp};
use serde_json::json;

#[test]
fn mur_sample_serves_its_tools_over_http() {
    let (_sandbox, session) = Sandbox::with_app();
    let lock = &session.lock;
    assert_eq!(lock.transport.as_str(), "http");

    let clicked = mcp::call_tool(&lock.endpoint, "click", json!({ "selector": "#btn-inc" }));
    assert_eq!(clicked["result"]["isError"], false, "{clicked}");
    assert_eq!(
        clicked["result"]["structuredContent"]["element"]["id"],
        "btn-inc"
    );
    let count = mcp::call_tool(&lock.endpoint, "state", json!({ "selector": "#count" }));
    assert_eq!(count["result"]["structuredContent"]["text"], "1");

    let failed = mcp::call_tool(
        &lock.endpoint,
        "click",
        json!({ "selector": "#btn-missing" }),
    );
    assert_eq!(failed["result"]["isError"], true);
    assert_eq!(
        failed["result"]["content"][0]["text"],
        "no element matches `#btn-missing`"
    );

    let shot = mcp::call_tool(
        &lock.endpoint,
        "screenshot",
        json!({ "selector": "#btn-inc" }),
    );
    let image = shot["result"]["content"]
        .as_array()
        .expect("content")
        .iter()
        .find(|block| block["type"] == "image")
        .cloned();
    assert_eq!(image.expect("an image block")["mimeType"], "image/png");
    assert_eq!(shot["result"]["structuredContent"]["width"], 64);

    let listed = mcp::modern(&lock.endpoint, "tools/list", json!({}));
    assert_eq!(
        listed["result"]["tools"].as_array().expect("tools").len(),
        22
    );
}

#[test]
fn reload_restarts_the_app_with_fresh_state_in_a_new_process() {
    let (sandbox, session) = Sandbox::with_app();
    let project = session.project.clone();
    let before = session.lock.clone();
    mcp::call_tool(
        &before.endpoint,
        "fire",
        json!({ "target": "counter.set", "args": { "value": 9 } }),
    );

    let answer = mcp::call_tool(
        &before.endpoint,
        "reload",
        json!({ "component": "counter" }),
    );
    assert_eq!(
        answer["result"]["structuredContent"]["reloading"], true,
        "{answer}"
    );
    let old_pid = session.pid();
    assert_eq!(
        session.wait_status().code(),
        Some(0),
        "the old process exits cleanly"
    );

    let after = sandbox.wait_for_lockfile(&project, |lock| lock.pid != old_pid);
    let _successor = Adopted(after.pid);
    let state = mcp::call_tool(&after.endpoint, "state", json!({}));
    assert_eq!(
        state["result"]["structuredContent"]["counter"]["count"], 0,
        "{state}"
    );
    let version = mcp::call_tool(&after.endpoint, "version", json!({}));
    assert_eq!(version["result"]["structuredContent"]["pid"], after.pid);
}

#[test]
fn usage_errors_exit_1_with_a_message() {
    let output = Sandbox::new().run_sample(&["--port", "notaport"]);
    assert_eq!(output.code, 1, "{output}");
    let stderr = &output.stderr;
    assert!(
        stderr.contains("invalid value 'notaport' for '--port <N>'"),
        "{stderr}"
    );
}

/// A second session for a project that has one exits 3 even when its stderr is a pipe
/// nobody reads any more (an agent host that closed it): the line is dropped, not a
/// panic's exit 101. Both started as a user starts them, with the path typed (not the
/// lockfile's canonical form of it).
#[test]
fn a_second_session_exits_3_when_its_stderr_reader_is_gone() {
    let (sandbox, first) = Sandbox::with_app();
    let mut second = sandbox.session_command(&sandbox.artifacts().sample, &first.project, &[]);
    let status = mur_testkit::exit_with_stderr_gone(&mut second);
    assert_eq!(status.code(), Some(3), "{status:?}");
}

/// `--project FOLDER`, the folder of the running app's one project file, is that project
/// (as `dotnet run --project` and `mur devtools --project` take it): a second session of
/// it exits 3 with the seed's line, whole. It ran as a second session, announced for the
/// folder (review 307, finding 15).
#[test]
fn a_folder_holding_the_running_apps_project_file_is_that_project() {
    let (sandbox, first) = Sandbox::with_app();
    let folder = first.project.parent().expect("the project's folder");
    let mut second = sandbox.session_command(&sandbox.artifacts().sample, folder, &[]);
    let (output, _) = mur_testkit::run_within(&mut second, mur_testkit::PATIENCE);
    assert_eq!(output.code, 3, "{output}");
    assert_eq!(
        output.stderr,
        mur_testkit::another_session_line(first.endpoint(), first.pid())
    );
}

/// A copy of `mur-sample` at `bin/mur-sample` in the sandbox, which a test may replace
/// ("rebuild") or remove under the session it runs.
fn a_copy_of_the_sample(sandbox: &Sandbox) -> std::path::PathBuf {
    let copy = sandbox.dir("bin").join("mur-sample");
    // By `cp`, not std::fs::copy: a file this multi-threaded test process had open for
    // writing can leak into a child another test forks meanwhile, and running it then
    // fails with "Text file busy".
    let copied = std::process::Command::new("cp")
        .arg(&sandbox.artifacts().sample)
        .arg(&copy)
        .status()
        .expect("run cp");
    assert!(copied.success(), "cp mur-sample: {copied}");
    copy
}

/// A session of [`a_copy_of_the_sample`] in a new sandbox, its counter set to 9: a test
/// tells the state it kept from a fresh app's.
fn a_session_of_a_copy() -> (
    Sandbox,
    std::path::PathBuf,
    std::path::PathBuf,
    mur_testkit::Session,
) {
    let sandbox = Sandbox::new();
    let project = sandbox.project("app");
    let program = a_copy_of_the_sample(&sandbox);
    let session = sandbox.start_session(&program, &project, &[]);
    mcp::call_tool(
        &session.lock.endpoint,
        "fire",
        json!({ "target": "counter.set", "args": { "value": 9 } }),
    );
    (sandbox, project, program, session)
}

/// `reload` asked at `endpoint`, which answers that it reloads.
fn reload_asked(endpoint: &str) {
    let answer = mcp::call_tool(endpoint, "reload", json!({}));
    assert_eq!(
        answer["result"]["structuredContent"]["reloading"], true,
        "{answer}"
    );
}

/// The app of `before` announced again, by the same process on the same endpoint, its
/// state kept (the counter [`a_session_of_a_copy`] set).
fn serving_on(sandbox: &Sandbox, project: &std::path::Path, pid: u32, endpoint: &str) {
    let again = sandbox.wait_for_lockfile(project, |lock| lock.pid == pid);
    assert_eq!(again.endpoint, endpoint);
    let state = mcp::call_tool(&again.endpoint, "state", json!({}));
    assert_eq!(
        state["result"]["structuredContent"]["counter"]["count"], 9,
        "{state}"
    );
}

/// The dev loop: edit, rebuild, reload. A rebuild replaces the program's file (a new
/// one at the same path), and Linux names the running program `PATH (deleted)` from
/// then on: the reload starts the new file at PATH, and the app goes on.
#[test]
fn reload_after_a_rebuild_starts_the_new_build() {
    let sandbox = Sandbox::new();
    let project = sandbox.project("app");
    let program = a_copy_of_the_sample(&sandbox);
    let session = sandbox.start_session(&program, &project, &[]);
    let before = session.lock.clone();
    std::fs::remove_file(&program).expect("remove the old build");
    a_copy_of_the_sample(&sandbox);

    reload_asked(&before.endpoint);
    let old_pid = session.pid();
    let log = session.log();
    assert_eq!(session.wait_status().code(), Some(0), "{log}");
    let after = sandbox.wait_for_lockfile(&project, |lock| lock.pid != old_pid);
    let _successor = Adopted(after.pid);
    let running = std::fs::read_link(format!("/proc/{}/exe", after.pid)).expect("its program");
    assert_eq!(running, program, "the successor runs the new build");
    let version = mcp::call_tool(&after.endpoint, "version", json!({}));
    assert_eq!(version["result"]["structuredContent"]["pid"], after.pid);
}

/// A reload whose new process cannot be started (the program's file is gone) fails,
/// and the app does not go with it: it says why on stderr, announces itself again and
/// serves on, on its port, its state kept.
#[test]
fn a_reload_that_cannot_start_the_program_leaves_the_app_serving() {
    let (sandbox, project, program, session) = a_session_of_a_copy();
    let before = session.lock.clone();
    std::fs::remove_file(&program).expect("remove the program");

    reload_asked(&before.endpoint);
    let said = format!(
        "ERROR mur_server::session: the reload failed, this process serves on: cannot restart \
         `{}`: No such file or directory (os error 2)",
        program.display()
    );
    mur_testkit::wait_until("the failed reload in the app's log", || {
        session.log().contains(&said).then_some(())
    });
    serving_on(&sandbox, &project, before.pid, &before.endpoint);
}

/// Started from a terminal, in its foreground (as a person runs the app), the app
/// reloads in place: the same pid, so the same job of the terminal, and Ctrl+C there
/// still stops it (a new process was left in the terminal's background, out of its
/// reach, once the first exited and the shell took the terminal back).
#[test]
fn an_app_in_a_terminals_foreground_reloads_in_place_and_ctrl_c_still_stops_it() {
    use std::io::Write as _;
    let sandbox = Sandbox::new();
    let project = sandbox.project("app");
    let log = sandbox.root().join("app.log");
    let line = format!(
        "'{}' --project '{}' --port 0 2>'{}'",
        sandbox.artifacts().sample.display(),
        project.display(),
        log.display()
    );
    let mut terminal = sandbox.on_a_terminal(&line);
    terminal
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut terminal = mur_testkit::Process::spawn(&mut terminal);
    let before = sandbox.wait_for_lockfile(&project, |_| true);
    mcp::call_tool(
        &before.endpoint,
        "fire",
        json!({ "target": "counter.set", "args": { "value": 9 } }),
    );

    let answer = mcp::call_tool(&before.endpoint, "reload", json!({}));
    assert_eq!(answer["result"]["structuredContent"]["pid"], before.pid);
    let read = || std::fs::read_to_string(&log).unwrap_or_default();
    mur_testkit::wait_until("the app to announce itself again", || {
        (read()
            .matches("INFO mur_server::announce: session for")
            .count()
            == 2)
            .then_some(())
    });
    let after = sandbox.wait_for_lockfile(&project, |lock| lock.pid == before.pid);
    assert_eq!(after.endpoint, before.endpoint);
    let state = mcp::call_tool(&after.endpoint, "state", json!({}));
    assert_eq!(
        state["result"]["structuredContent"]["counter"]["count"], 0,
        "a fresh app: {state}"
    );
    assert!(
        read().contains(&format!(
            "INFO mur_server::session: reloading: restarting in place (pid {}), this \
             terminal's foreground job\n",
            before.pid
        )),
        "{}",
        read()
    );

    // Ctrl+C typed at the terminal (its input kept open until the app is gone).
    let mut keyboard = terminal
        .child_mut()
        .stdin
        .take()
        .expect("the terminal's input");
    keyboard.write_all(b"\x03").expect("type Ctrl+C");
    keyboard.flush().expect("type Ctrl+C");
    mur_testkit::wait_until("the app to stop on Ctrl+C", || {
        (read().contains("interrupted; shutting down") && terminal.try_wait().is_some())
            .then_some(())
    });
    assert!(
        sandbox.read_lockfile(&project).is_none(),
        "the lockfile is removed"
    );
    drop(keyboard);
}

/// A new build that fails as it starts (a panic in the new code, say: here a program
/// that exits 1 at once) does not take the app down: the reloading process waits for
/// its successor to announce itself and, when it exits first, serves on, saying so.
#[test]
fn a_new_build_that_exits_as_it_starts_leaves_the_old_app_serving() {
    let (sandbox, project, program, session) = a_session_of_a_copy();
    let before = session.lock.clone();
    std::fs::remove_file(&program).expect("remove the old build");
    std::fs::write(
        &program,
        "#!/bin/sh\necho 'the new build broke' >&2\nexit 1\n",
    )
    .expect("write the broken build");
    std::fs::set_permissions(
        &program,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .expect("make it runnable");

    reload_asked(&before.endpoint);
    let said = "ERROR mur_server::session: the reload failed, this process serves on: the new \
                process (pid ";
    let line = mur_testkit::wait_until("the failed reload in the app's log", || {
        let log = session.log();
        Some(log[log.find(said)?..].lines().next()?.to_owned())
    });
    assert!(
        line.ends_with(") exited (exit status: 1) before it announced itself"),
        "{line}"
    );
    assert!(session.log().contains("the new build broke\n"));
    serving_on(&sandbox, &project, before.pid, &before.endpoint);
}
