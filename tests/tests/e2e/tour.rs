//! Command one: `scripts/tour.sh` runs to exit 0 twice in a row, writes a real
//! PNG, prints every step, and leaves no sandbox (so no lockfile) behind.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use mur_e2e::plugins::repo_root;
use mur_e2e::{Output, one_process_at_a_time, run_within};

/// The target directory this test was built into (`target/<profile>/deps/<test>`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    exe.ancestors().nth(3).expect("target directory").to_owned()
}

/// Runs the tour with the real environment (it needs cargo and rustup), its
/// output captured, building into this test's target directory; the user's
/// state directory is `state`, which the tour must leave alone.
fn run_tour(state: &Path) -> Output {
    let mut tour = Command::new("bash");
    tour.arg(repo_root().join("scripts/tour.sh"))
        .env("CARGO_TARGET_DIR", target_dir())
        .env("XDG_STATE_HOME", state)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    run_within(&mut tour, TOUR_LIMIT).0
}

/// Bound on one tour, its builds included (they are up to date when the tests run).
const TOUR_LIMIT: Duration = Duration::from_secs(20 * 60);

/// The sandbox directory the tour announced on its first line.
fn sandbox_of(out: &Output) -> PathBuf {
    let first = out.stdout.lines().next().unwrap_or_default();
    let start = first
        .find('(')
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("no sandbox path in {first:?}"));
    let end = first[start..]
        .find(')')
        .map(|i| start + i)
        .expect("closing parenthesis");
    PathBuf::from(&first[start..end])
}

fn assert_png(path: &Path) {
    let file =
        std::fs::File::open(path).unwrap_or_else(|e| panic!("no PNG at `{}`: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("buffer size")];
    let frame = reader.next_frame(&mut pixels).expect("PNG pixels decode");
    assert!(frame.width > 0 && frame.height > 0, "empty image");
}

#[track_caller]
fn assert_clean_run(out: &Output) {
    out.assert_code(0);
    // No terminal: no escape codes, and every step printed before its output.
    assert!(
        !out.stdout.contains('\u{1b}'),
        "escape codes without a terminal\n{out}"
    );
    for step in [
        "$ mur devtools session list --pretty",
        "$ mur devtools click '#btn-inc'",
        "$ mur devtools call tools/list",
    ] {
        assert!(out.stdout.contains(step), "missing step `{step}`\n{out}");
    }
    assert!(
        out.stdout.contains("\"text\":\"3\""),
        "the count is not 3 after three clicks\n{out}"
    );
    assert!(
        out.stdout.contains("→ exit 5") && out.stdout.contains("→ exit 4"),
        "a failure step is missing\n{out}"
    );
    assert!(
        out.stdout
            .contains("the app stopped and removed its lockfile"),
        "{out}"
    );
    let sandbox = sandbox_of(out);
    assert!(
        !sandbox.exists(),
        "the tour left its sandbox (and lockfile dir) at `{}`",
        sandbox.display()
    );
}

/// Held while this test runs the tour: the tour writes its screenshot to the one
/// `target/tour/tour.png` of the target directory, which this test removes between
/// runs; a second test process at once (a run beside a rerun) would remove it under
/// this one's feet.
fn one_tour_at_a_time() -> std::fs::File {
    one_process_at_a_time(&target_dir().join("tour/.test.lock"), "the tour")
}

#[test]
fn the_tour_runs_clean_twice_in_a_row() {
    let _tour = one_tour_at_a_time();
    let png = target_dir().join("tour/tour.png");
    let _ = std::fs::remove_file(&png);
    let state = tempfile::tempdir().expect("state dir");
    let first = run_tour(state.path());
    assert_clean_run(&first);
    assert_png(&png);
    // Before, every call of the tour was recorded in the user's own usage log,
    // which `usage report` and `verbs prune` then judged verbs by.
    let touched: Vec<_> = std::fs::read_dir(state.path()).expect("state").collect();
    assert!(
        touched.is_empty(),
        "the tour wrote into the user's state directory: {touched:?}"
    );
    std::fs::remove_file(&png).expect("remove the first PNG");
    let second = run_tour(state.path());
    assert_clean_run(&second);
    assert_png(&png);
    assert_ne!(
        sandbox_of(&first),
        sandbox_of(&second),
        "each run has its own sandbox"
    );
}
