//! The measurements themselves, one function per table section.

use std::time::{Duration, Instant};

use mur_lockfile::{Lockfile, Registry};

use crate::{
    latency::STATE_ARGS,
    measure,
    runs::Run,
    setup::{Bench, Result},
    stats::{Row, ms},
};

fn io(err: std::io::Error) -> String {
    err.to_string()
}

/// Verb load: install (validate + compile), first call with an empty compile
/// cache, and warm calls, per standard verb. `<verb> --timeout 1000 --help`
/// runs the verb's own `parse` (a lone `--help` is answered from the index)
/// without touching the network, so this isolates the verb runtime.
pub fn verb_load(
    sandbox: &Bench,
    files: &[std::path::PathBuf],
    warm_runs: usize,
) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for file in files {
        let name = verb_name(file);
        let mut add = sandbox.mur(&["verbs", "add", "--force"]);
        add.arg(file);
        let install = measure::run_expect(&mut add, 0).map_err(io)?;
        let _ = std::fs::remove_dir_all(sandbox.cache_dir().join("mur"));
        let cold =
            measure::run_expect(&mut sandbox.mur(&[&name, "--timeout", "1000", "--help"]), 0)
                .map_err(io)?;
        let parse = || sandbox.mur(&[&name, "--timeout", "1000", "--help"]);
        let memory = measure::run_for_memory_expect(&mut parse(), 0).map_err(io)?;
        let warm: Vec<Run> = (0..warm_runs)
            .map(|_| measure::run_expect(&mut parse(), 0))
            .collect::<std::io::Result<_>>()
            .map_err(io)?;
        let note = format!(
            "add {} ms, first call (cold cache) {} ms",
            ms(install.elapsed),
            ms(cold.elapsed)
        );
        let split = in_process_split(sandbox, &name);
        rows.push(
            Row::from_runs(format!("{name} parse (warm, --help)"), &warm)
                .peak_from(&[memory])
                .note(format!("{note}; {split}")),
        );
    }
    Ok(rows)
}

fn verb_name(file: &std::path::Path) -> String {
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    stem.trim_start_matches("mur_verb_").to_owned()
}

/// The runtime's own account of a warm call, from its `-v` timing line
/// (`verb timings: …`), when it prints one.
fn in_process_split(sandbox: &Bench, verb: &str) -> String {
    let output = sandbox
        .mur(&["-v", verb, "--timeout", "1000", "--help"])
        .output();
    let stderr = output
        .map(|out| String::from_utf8_lossy(&out.stderr).into_owned())
        .unwrap_or_default();
    stderr
        .lines()
        .find_map(|line| {
            line.split_once("verb timings:")
                .map(|(_, rest)| rest.trim().to_owned())
        })
        .unwrap_or_else(|| "in-process split not reported".to_owned())
}

/// Discovery with many dead entries beside the one live session. The host
/// may delete stale files as it goes, so they are planted again before each run.
/// Each case runs twice: in the sandbox's runtime directory (on the disk its temporary
/// directory is on, like the `/tmp/reactor-devtools-<uid>` fallback) and in one on tmpfs
/// (`/dev/shm`, like the `/run/user/<uid>` a systemd login gives `XDG_RUNTIME_DIR`),
/// because removing a file costs ~20 times more on a journalled disk.
pub fn discovery_at_scale(sandbox: &Bench, live: &Lockfile, runs: usize) -> Result<Vec<Row>> {
    let dead_pid = mur_testkit::process::try_dead_pid().map_err(io)?;
    let mut rows = Vec::new();
    // The verb-load section leaves `state` out of the compile cache, and the first call
    // after it compiles the verb (~24 MiB): that is not what discovery costs.
    measure::run_expect(&mut sandbox.mur(&["state", "--selector", "#count"]), 0).map_err(io)?;
    let tmpfs = TmpfsRuntime::new(live)?;
    let places = [
        Some(("disk", None)),
        tmpfs.as_ref().map(|t| ("tmpfs", Some(t))),
    ];
    for (place, tmpfs) in places.into_iter().flatten() {
        let registry = tmpfs.map_or_else(|| sandbox.registry(), TmpfsRuntime::registry);
        let plant_stale = || plant_stale(&registry, live, dead_pid, 1000);
        let plant_malformed = || plant_malformed(&registry, 50);
        let cases: [(&str, &dyn Fn() -> Result<()>); 2] = [
            ("1 live + 1,000 stale", &plant_stale),
            ("1 live + 50 malformed", &plant_malformed),
        ];
        for (label, plant) in cases {
            for (what, args) in [
                ("session list", vec!["session", "list"]),
                (
                    "state --selector '#count'",
                    vec!["state", "--selector", "#count"],
                ),
            ] {
                let command = || {
                    let mut command = sandbox.mur(&args);
                    if let Some(t) = tmpfs {
                        command.env("XDG_RUNTIME_DIR", t.dir.path());
                    }
                    command
                };
                plant()?;
                let memory = measure::run_for_memory_expect(&mut command(), 0).map_err(io)?;
                let mut samples = Vec::new();
                for _ in 0..runs {
                    plant()?;
                    samples.push(measure::run_expect(&mut command(), 0).map_err(io)?);
                }
                let name = format!("{what} — {label}, runtime dir on {place}");
                rows.push(Row::from_runs(name, &samples).peak_from(&[memory]));
            }
            clear_planted(&registry, live)?;
        }
    }
    Ok(rows)
}

/// A runtime directory on tmpfs holding a copy of the live session's lockfile, so `mur`
/// finds that session there too; `None` where there is no `/dev/shm`.
struct TmpfsRuntime {
    dir: tempfile::TempDir,
}

impl TmpfsRuntime {
    fn new(live: &Lockfile) -> Result<Option<Self>> {
        let shm = std::path::Path::new("/dev/shm");
        if !shm.is_dir() {
            return Ok(None);
        }
        let dir = tempfile::Builder::new()
            .prefix("mur-bench-run-")
            .tempdir_in(shm)
            .map_err(io)?;
        let runtime = Self { dir };
        runtime.registry().write(live).map_err(io)?;
        Ok(Some(runtime))
    }

    /// The lockfile directory `mur` reads with this as its `XDG_RUNTIME_DIR`.
    fn registry(&self) -> Registry {
        let path = self.dir.path().as_os_str();
        Registry::at(mur_lockfile::paths::lockfile_dir_from(
            |name| (name == "XDG_RUNTIME_DIR").then(|| path.to_owned()),
            0,
        ))
    }
}

fn plant_stale(registry: &Registry, live: &Lockfile, dead_pid: u32, count: usize) -> Result<()> {
    for index in 0..count {
        let lock = Lockfile::http(
            live.port,
            dead_pid,
            format!("/stale/{index}/App.csproj"),
            "bench".into(),
        );
        registry.write(&lock).map_err(io)?;
    }
    Ok(())
}

fn plant_malformed(registry: &Registry, count: usize) -> Result<()> {
    let dir = registry.dir().to_path_buf();
    for index in 0..count {
        let path = dir.join(format!("{index:016x}.json"));
        std::fs::write(
            &path,
            b"{\"schema\": \"reactor-devtools-lockfile/1\", \"endpo",
        )
        .map_err(io)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).map_err(io)?;
        }
    }
    Ok(())
}

fn clear_planted(registry: &Registry, live: &Lockfile) -> Result<()> {
    let keep = registry.path_for(&live.project);
    for entry in registry.scan().map_err(io)? {
        if entry.path != keep {
            registry.remove(&entry.path).map_err(io)?;
        }
    }
    Ok(())
}

/// `--auto`: find the session with its lockfile moved aside, over the
/// default range and over 1024–65535.
pub fn auto_scan(sandbox: &Bench, live: &Lockfile, runs: usize) -> Result<Vec<Row>> {
    let registry = sandbox.registry();
    let lockfile = registry.path_for(&live.project);
    let aside = sandbox.runtime_dir().join("aside.json");
    std::fs::rename(&lockfile, &aside).map_err(io)?;
    let result = (|| {
        let mut rows = Vec::new();
        for (label, flag) in [
            ("--auto (default range)", "--auto"),
            ("--auto-full (1024-65535)", "--auto-full"),
        ] {
            let find = || sandbox.mur(&[flag, "call", "version"]);
            let memory = measure::run_for_memory_expect(&mut find(), 0).map_err(io)?;
            let samples: Vec<Run> = (0..runs)
                .map(|_| measure::run_expect(&mut find(), 0))
                .collect::<std::io::Result<_>>()
                .map_err(io)?;
            rows.push(
                Row::from_runs(format!("{label}: find + call version"), &samples)
                    .peak_from(&[memory])
                    .note(format!("session on port {}", live.port)),
            );
        }
        Ok(rows)
    })();
    std::fs::rename(&aside, &lockfile).map_err(io)?;
    result
}

/// Calls per second `mur-sample` sustains from `connections` keep-alive
/// clients for `duration`, with latency percentiles.
pub fn server_load(endpoint: &str, connections: usize, duration: Duration) -> Result<Row> {
    let (host_port, path) = mur_bench::wire::split_endpoint(endpoint).map_err(io)?;
    let request = mur_bench::wire::tools_call_request(&host_port, &path, "state", STATE_ARGS, true);
    let deadline = Instant::now() + duration;
    let workers: Vec<_> = (0..connections)
        .map(|_| {
            let (host_port, request) = (host_port.clone(), request.clone());
            std::thread::spawn(move || client_loop(&host_port, &request, deadline))
        })
        .collect();
    let mut samples = Vec::new();
    let mut errors = 0usize;
    for worker in workers {
        let (mut latencies, failed) = worker
            .join()
            .map_err(|_| "load client panicked".to_owned())?;
        samples.append(&mut latencies);
        errors += failed;
    }
    let throughput = samples.len() as f64 / duration.as_secs_f64();
    let p99 = crate::stats::percentile(&samples, 99.0);
    Ok(Row::from_durations(
        format!("server: {connections} keep-alive clients, state"),
        samples,
    )
    .note(format!(
        "{throughput:.0} calls/s, p99 {} ms, {errors} errors",
        ms(p99)
    )))
}

fn client_loop(host_port: &str, request: &[u8], deadline: Instant) -> (Vec<Duration>, usize) {
    use std::io::Write;
    let (mut latencies, mut errors) = (Vec::new(), 0);
    let Ok(stream) = std::net::TcpStream::connect(host_port) else {
        return (latencies, 1);
    };
    let _ = stream.set_nodelay(true);
    let mut writer = match stream.try_clone() {
        Ok(writer) => writer,
        Err(_) => return (latencies, 1),
    };
    let mut reader = std::io::BufReader::new(stream);
    while Instant::now() < deadline {
        let started = Instant::now();
        let ok = writer.write_all(request).is_ok()
            && matches!(mur_bench::wire::read_response(&mut reader), Ok((200, _)));
        if !ok {
            errors += 1;
            break;
        }
        latencies.push(started.elapsed());
    }
    (latencies, errors)
}
