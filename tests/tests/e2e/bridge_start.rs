//! `mur devtools bridge`: how a start that never comes up ends — a signal while a
//! foreground bridge's server starts, and a command that echoes the bridge's
//! `initialize` back (`cat`) rather than answering it.

use std::os::unix::process::ExitStatusExt as _;

use mur_e2e::{Sandbox, wait_until};

/// Whether process `pid` still runs (a zombie does not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| !stat.rsplit(") ").next().unwrap_or("").starts_with('Z'))
}

/// The lines of a foreground bridge's stderr that are not its log's (which begin with
/// the time).
fn said(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|line| !line.starts_with(|c: char| c.is_ascii_digit()))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// Ctrl+C or SIGTERM while a `bridge --foreground` waits for its server to answer
/// `initialize` ends it as interrupted, as the same signal ends a background start: one
/// line in mur's words and an end by the signal (a shell's 130 or 143), its server
/// stopped with it. It exited 2, saying "the bridge was stopped before the server
/// answered `initialize`", as if `bridge stop` had stopped it.
#[test]
fn a_signal_while_a_foreground_bridge_starts_ends_it_as_interrupted() {
    for (signal, number) in [("INT", 2), ("TERM", 15)] {
        let sb = Sandbox::new();
        let project = sb.project("fg");
        let started = sb.root().join("server.pid");
        let script = format!("echo $$ > '{}'; exec sleep 600", started.display());
        let mut command = sb.mur_command(&["devtools", "bridge", "--foreground", "--project"]);
        let stderr = sb.root().join("bridge.stderr");
        command
            .arg(&project)
            .args(["--", "sh", "-c", &script])
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(&stderr).expect("a file for stderr"));
        let bridge = mur_e2e::Process::spawn(&mut command);
        let server: u32 = wait_until("the server to start", || {
            std::fs::read_to_string(&started)
                .ok()
                .and_then(|pid| pid.trim().parse().ok())
        });
        bridge.signal(signal);
        let status = bridge.wait_status();
        let stderr = std::fs::read_to_string(&stderr).expect("its stderr");
        assert_eq!(
            said(&stderr),
            format!(
                "error: interrupted by SIG{signal} while the bridge started: it was stopped, \
                 and its server with it\n"
            ),
            "{stderr}"
        );
        // Its last line offers the command back as its user ran it, in the foreground.
        // It lacked `--foreground`, and so started the bridge in the background instead.
        let stopped =
            format!("bridge stopped: interrupted by SIG{signal} while its server started");
        let last = stderr.lines().rfind(|line| line.contains(&stopped));
        assert!(
            last.is_some_and(|line| line.contains("; to start it again: `cd ")
                && line.contains(" && mur devtools bridge --foreground --project ")),
            "{stderr}"
        );
        // Ended by the signal, as the shell's 130 or 143 says.
        assert_eq!(status.signal(), Some(number), "{status:?}\n{stderr}");
        wait_until("the server to be stopped", || {
            (!running(server)).then_some(())
        });
        assert!(sb.read_lockfile(&project).is_none());
    }
}

/// A command that writes back what it reads (`cat`) is no MCP server: the start fails
/// at once, saying the server echoed the bridge's `initialize` request and naming the
/// program. It waited 60 s and said "the server did not answer `initialize` within 60
/// s".
#[test]
fn a_server_that_echoes_initialize_back_fails_the_start_at_once() {
    let sb = Sandbox::new();
    let project = sb.project("cat");
    let project_arg = project.to_str().expect("utf-8");
    let out = sb.mur(&["devtools", "bridge", "--project", project_arg, "--", "cat"]);
    out.assert_code(2);
    let log = sb.lockfile_path(&project).with_extension("bridge.log");
    let stderr: String = out
        .stderr
        .lines()
        .filter(|line| !line.starts_with("waiting for the server"))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_eq!(
        stderr,
        format!(
            "error: the server echoed the bridge's `initialize` request back instead of \
             answering it: is `cat` an MCP stdio server?\n\
             hint: its stderr is in `{}`\n",
            log.display()
        ),
        "{out}"
    );
    assert!(sb.read_lockfile(&project).is_none());
}
