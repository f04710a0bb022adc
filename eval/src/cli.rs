//! The command line of `mur-eval` (clap types) and its validation: a [`Plan`], a
//! [`StudyCommand`], a report's page ([`PageOut`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::builder::{EnumValueParser, PathBufValueParser, StringValueParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use mur_core::{Error, Result};

use crate::default_out;
use crate::page_out::{Dir, Named, PageOut};
use crate::profile::Profile;
use crate::programs::binary;
use crate::run::{Plan, Runner};
use crate::task;

/// The tasks shipped with mur-eval: `eval/tasks` of the source tree it was built from.
pub const TASK_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tasks");

/// `given`, else `built` — the directory of shipped files (`eval/tasks`,
/// `eval/conditions`) in the source tree mur-eval was built from, which an installed
/// mur-eval reads as long as that tree is there; a usage error naming `flag` once it is
/// gone. `what` names the files (`task`).
pub fn shipped_dir(given: Option<PathBuf>, built: &str, what: &str, flag: &str) -> Result<PathBuf> {
    if let Some(dir) = given {
        return Ok(dir);
    }
    let built = PathBuf::from(built);
    if built.is_dir() {
        return Ok(built);
    }
    Err(Error::usage(format!(
        "no {what} directory: the {what}s shipped with mur-eval are read from the source tree it was built from, and `{}` is gone",
        built.display()
    ))
    .with_hint(format!(
        "name one with `{flag} DIR` (eval/{what}s of a mur checkout)"
    )))
}

#[derive(Parser)]
#[command(
    name = "mur-eval",
    version,
    about = "Run an agent on mur-sample tasks under a CLI-only, an MCP-only or a both profile",
    after_help = "The tasks, profiles, agent placeholders and the report are described in docs/eval.md."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run an agent on the tasks under one profile and report
    Run(RunArgs),
    /// List the tasks
    Tasks(TasksArgs),
    /// Run conditions × tasks × repeats; results.jsonl, report.md and report.csv
    Study(StudyArgs),
    /// Print a study's report from its results.jsonl, writing report.md, report.csv and
    /// transcripts.md beside it anew; --html, --readme
    Report(ReportArgs),
    /// List the conditions a study can run
    Conditions(ConditionsArgs),
}

#[derive(Args)]
pub struct ConditionsArgs {
    /// Where the condition files are [default: eval/conditions of the source tree
    /// mur-eval was built from]
    #[arg(long, value_name = "DIR", value_parser = path())]
    pub condition_dir: Option<PathBuf>,
}

#[derive(Args)]
pub struct StudyArgs {
    /// The agent command, run by `sh -c` per run; `{condition}` and `{surface}` besides
    /// `run`'s placeholders
    #[arg(long, value_name = "COMMAND")]
    pub agent: String,
    /// The conditions (comma-separated names, or `all`) [default: all]
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub conditions: Vec<String>,
    /// The tasks (comma-separated ids) [default: all]
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub tasks: Vec<String>,
    /// How many times each task runs under each condition
    // Any word is its value: `-2` is refused as too few, not as an unknown option.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = NotEmpty(repeats), allow_hyphen_values = true)]
    pub repeats: u32,
    /// How many runs at once
    #[arg(long, value_name = "J", default_value_t = 1, value_parser = NotEmpty(jobs), allow_hyphen_values = true)]
    pub jobs: u32,
    /// The study's directory; the same one again resumes it [default: mur-eval-out/study-<time>]
    // The help text names its placeholders in angle brackets, as clap's do: not HTML.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long, value_name = "DIR", value_parser = path())]
    pub out: Option<PathBuf>,
    /// The seed of the runs' order [default: a fresh one, or the one the study recorded]
    // Any word is its value: `-1` is refused as no seed, not as an unknown option.
    #[arg(long, value_name = "N", value_parser = NotEmpty(seed), allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// Read the agent's stdout as this event stream (turns, tokens, cost), over a
    /// condition's own `agent_format`
    #[arg(long, value_name = "FORMAT", value_parser = one_of::<crate::adapters::Format>())]
    pub agent_format: Option<crate::adapters::Format>,
    /// Also write the report as one self-contained HTML page (`-`: print it on stdout in
    /// place of the markdown report, which report.md holds)
    #[arg(long, value_name = "FILE", value_parser = path())]
    pub html: Option<PathBuf>,
    /// The condition the report compares the others with ("Against …") [default:
    /// cli-named when the study has it, else its first condition]
    #[arg(long, value_name = "CONDITION", value_parser = NotEmpty(StringValueParser::new()))]
    pub against: Option<String>,
    /// Where the condition files are [default: eval/conditions of the source tree
    /// mur-eval was built from]
    #[arg(long, value_name = "DIR", value_parser = path())]
    pub condition_dir: Option<PathBuf>,
    #[command(flatten)]
    pub runner: RunnerArgs,
}

#[derive(Args)]
pub struct ReportArgs {
    /// The study's directory (its results.jsonl and study.json)
    #[arg(value_name = "DIR", value_parser = path())]
    pub dir: PathBuf,
    /// Also write the report as one self-contained HTML page (`-`: print it on stdout in
    /// place of the markdown report, which report.md holds)
    #[arg(long, value_name = "FILE", value_parser = path())]
    pub html: Option<PathBuf>,
    /// Put the per-condition table into FILE between its `<!-- study-baseline -->` and
    /// `<!-- /study-baseline -->` lines
    #[arg(long, value_name = "FILE", value_parser = path())]
    pub readme: Option<PathBuf>,
    /// The condition the report compares the others with ("Against …") [default:
    /// cli-named when the study has it, else its first condition]
    #[arg(long, value_name = "CONDITION", value_parser = NotEmpty(StringValueParser::new()))]
    pub against: Option<String>,
}

#[derive(Args)]
pub struct RunArgs {
    /// What the agent may use: `cli` (mur on PATH), `mcp` (an MCP configuration) or
    /// `both` (the two at once, for the agent to pick from)
    #[arg(long, value_parser = one_of::<Profile>())]
    pub profile: Profile,
    /// The agent command, run by `sh -c` per task; placeholders {task}, {prompt},
    /// {prompt_file}, {workdir}, {mcp_config} and {profile} are replaced, shell-quoted
    #[arg(long, value_name = "COMMAND")]
    pub agent: String,
    /// Run only these tasks (comma-separated ids), in this order
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub tasks: Vec<String>,
    /// Print the report as JSON (schema mur-eval/1)
    #[arg(long)]
    pub json: bool,
    /// Where transcripts and the report go [default: mur-eval-out/<profile>-<time>]
    // The help text names its placeholders in angle brackets, as clap's do: not HTML.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long, value_name = "DIR", value_parser = path())]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub runner: RunnerArgs,
}

/// The options of `run` and `study` that shape each run, the same for both.
#[derive(Args)]
pub struct RunnerArgs {
    /// Where the task files are [default: eval/tasks of the source tree mur-eval was
    /// built from]
    #[arg(long, value_name = "DIR", value_parser = path())]
    pub task_dir: Option<PathBuf>,
    /// The agent's time limit per run, in seconds, over the tasks' own
    /// [default: the task's, else 120]
    #[arg(long, value_name = "SECS", value_parser = NotEmpty(time_limit_secs), allow_hyphen_values = true)]
    pub time_limit: Option<u64>,
    /// The `mur` to put on PATH (cli) [default: beside mur-eval, else on PATH]
    #[arg(long, value_name = "PATH", value_parser = path())]
    pub mur: Option<PathBuf>,
    /// The `mur-sample` to run [default: beside mur-eval, else on PATH]
    #[arg(long, value_name = "PATH", value_parser = path())]
    pub sample: Option<PathBuf>,
    /// The verb components (`*.wasm`) to install: the cli profile's, or the standard
    /// named verbs of `verbs = "named"`; compiled once, kept in `--out`'s
    /// `compiled-verbs` for every run [default: your installed verbs,
    /// `$XDG_DATA_HOME/mur/verbs`]
    #[arg(long, value_name = "DIR", value_parser = path())]
    pub verbs: Option<PathBuf>,
    /// Pass this environment variable on to the agent (repeatable; e.g. an API key)
    #[arg(long, value_name = "NAME", value_parser = NotEmpty(StringValueParser::new()))]
    pub pass_env: Vec<String>,
}

#[derive(Args)]
pub struct TasksArgs {
    /// Where the task files are [default: eval/tasks of the source tree mur-eval was
    /// built from]
    #[arg(long, value_name = "DIR", value_parser = path())]
    pub task_dir: Option<PathBuf>,
    /// One JSON object per task
    #[arg(long)]
    pub json: bool,
}

/// `given`, else the shipped tasks.
pub fn task_dir(given: Option<PathBuf>) -> Result<PathBuf> {
    shipped_dir(given, TASK_DIR, "task", "--task-dir")
}

/// `given`, else the shipped conditions.
pub fn condition_dir(given: Option<PathBuf>) -> Result<PathBuf> {
    shipped_dir(
        given,
        crate::condition::CONDITION_DIR,
        "condition",
        "--condition-dir",
    )
}

/// How a count option's value is said when it is refused: `{subject} must be at least
/// 1{unit}`, `{subject} is at most {most}{units}`, `` `x` is not a whole number of
/// {of} (e.g. `{example}`) ``.
struct Count {
    subject: &'static str,
    /// After a bound of one, and of more (` second`, ` seconds`), or nothing.
    unit: (&'static str, &'static str),
    of: &'static str,
    example: &'static str,
}

/// A whole number from 1 to `most`, said as mur says a bound it refuses (`--timeout`'s
/// `the bound must be at least 1 ms`): a negative one is below the bound, not clap's
/// "unexpected argument" (the option takes any word, `allow_hyphen_values`), and clap's
/// own range words ("0 is not in 1..=64") read as no sentence of mur's.
fn count(text: &str, said: &Count, most: u64) -> std::result::Result<u64, String> {
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let unit = |n: u64| if n == 1 { said.unit.0 } else { said.unit.1 };
    let subject = said.subject;
    let below = || format!("{subject} must be at least 1{}", unit(1));
    let above = || format!("{subject} is at most {most}{}", unit(most));
    match text.parse::<u64>() {
        Ok(0) => Err(below()),
        Ok(n) if n <= most => Ok(n),
        Ok(_) => Err(above()),
        _ if text.strip_prefix('-').is_some_and(all_digits) => Err(below()),
        _ if all_digits(text.strip_prefix('+').unwrap_or(text)) => Err(above()),
        _ => Err(format!(
            "`{text}` is not a whole number of {} (e.g. `{}`)",
            said.of, said.example
        )),
    }
}

/// `--time-limit`, in seconds. 0 would end every agent at once, and record every run as
/// a timed-out failure that a resumed study then skips; a limit too large for the clock
/// to count is no limit ([`crate::agent::run`]).
fn time_limit_secs(text: &str) -> std::result::Result<u64, String> {
    let said = Count {
        subject: "the time limit",
        unit: (" second", " seconds"),
        of: "seconds",
        example: "300",
    };
    count(text, &said, u64::MAX)
}

/// `--repeats`: 0 would run nothing.
fn repeats(text: &str) -> std::result::Result<u32, String> {
    let said = Count {
        subject: "the number of repeats",
        unit: ("", ""),
        of: "repeats",
        example: "3",
    };
    count(text, &said, u32::MAX.into()).map(|n| n as u32)
}

/// `--jobs`: from 1 to [`MOST_JOBS`] runs at once.
fn jobs(text: &str) -> std::result::Result<u32, String> {
    let said = Count {
        subject: "the number of runs at once",
        unit: ("", ""),
        of: "runs",
        example: "2",
    };
    count(text, &said, MOST_JOBS.into()).map(|n| n as u32)
}

/// The most runs `--jobs` runs at once.
const MOST_JOBS: u32 = 64;

/// `--seed`: any whole number a study's order can be drawn from, and nothing else: a
/// negative one (`-1`) was refused as an unknown option.
fn seed(text: &str) -> std::result::Result<u64, String> {
    text.parse::<u64>()
        .map_err(|_| format!("a seed is a whole number from 0 to {}", u64::MAX))
}

/// `--tasks`, as clap names it in its errors.
const TASKS: &str = "--tasks <IDS>";

/// `--conditions`, as clap names it in its errors.
const CONDITIONS: &str = "--conditions <NAMES>";

/// Refuses an empty name in the list option `option` (`given`, split at its commas),
/// saying what it takes (`possible`): the whole value typed empty (`--tasks ''`, a
/// script's `--tasks "$UNSET"`) as mur says an empty value, one comma too many
/// (`--tasks a,`) as that. Both were said as an unknown name, `` no task `` ``.
fn no_empty_name<'a>(
    option: &str,
    given: &[String],
    possible: impl Iterator<Item = &'a str>,
) -> Result<()> {
    if !given.iter().any(String::is_empty) {
        return Ok(());
    }
    let possible: Vec<String> = possible.map(str::to_owned).collect();
    if given.iter().all(String::is_empty) {
        return Err(Error::usage(mur_core::given_empty_of(option, &possible)));
    }
    Err(Error::usage(format!(
        "`{option}` holds an empty name (`{}`: a comma too many; possible values: {})",
        given.join(","),
        possible.join(", ")
    )))
}

/// Default agent time limit per task.
const TIME_LIMIT: Duration = Duration::from_secs(120);

impl RunArgs {
    /// The validated plan: tasks loaded and selected, binaries and verbs found.
    pub fn plan(self) -> Result<Plan> {
        let all = task::load_dir(&self.runner.task_dir()?)?;
        no_empty_name(TASKS, &self.tasks, all.iter().map(|t| t.id.as_str()))?;
        let tasks = task::select(all, &self.tasks)?;
        let verbs = self.runner.verbs(true)?;
        let runner = self.runner.runner()?;
        // Last: a default directory is made as it is named.
        let (out, made_out) = default_out::given_or_made(self.out, self.profile.name())?;
        Ok(Plan {
            profile: self.profile,
            agent: self.agent,
            tasks,
            out,
            _made_out: made_out,
            verbs,
            runner,
        })
    }
}

/// The validated `study` command: the study, and what its report is made with.
pub struct StudyCommand {
    pub study: crate::study::Study,
    /// `--html`, checked.
    pub page: Option<PageOut>,
    /// `--against`, a condition of the study.
    pub against: Option<String>,
}

impl StudyArgs {
    /// The validated command: the study, its page and the condition its report compares
    /// the others with.
    pub fn command(mut self) -> Result<StudyCommand> {
        let named = self.html.take().map(Named::read).transpose()?;
        let against = self.against.take();
        // A page on stdout is printed, not recorded as one to write again.
        let study = self.study(named.as_ref().and_then(Named::file))?;
        // Named before any run: a condition the command does not run is refused now.
        if let Some(named) = &against
            && !study.conditions.iter().any(|c| &c.name == named)
        {
            return Err(Error::usage(format!(
                "`--against {named}`: not a condition of this study (`--conditions`)"
            )));
        }
        let page = named
            .map(|named| named.checked(&study.out, Dir::Later))
            .transpose()?;
        Ok(StudyCommand {
            study,
            page,
            against,
        })
    }

    /// The validated study: conditions and tasks loaded and selected, binaries found;
    /// `html`, the page it records.
    fn study(self, html: Option<&Path>) -> Result<crate::study::Study> {
        let conditions_from = condition_dir(self.condition_dir.clone())?;
        let all = crate::condition::load_dir(&conditions_from)?;
        let names = std::iter::once("all").chain(all.iter().map(|c| c.name.as_str()));
        no_empty_name(CONDITIONS, &self.conditions, names)?;
        let conditions = crate::condition::select(all, &self.conditions)?;
        let tasks_from = self.runner.task_dir()?;
        let all = task::load_dir(&tasks_from)?;
        no_empty_name(TASKS, &self.tasks, all.iter().map(|t| t.id.as_str()))?;
        let tasks = task::select(all, &self.tasks)?;
        crate::study::check_size(conditions.len(), tasks.len(), self.repeats)?;
        let named = conditions
            .iter()
            .any(|c| c.verbs == Some(crate::condition::VerbSet::Named));
        let verbs = self.runner.verbs(named)?;
        let runner = self.runner.runner()?;
        // Before the study writes anything into its directory (`live-root`, its lock).
        let capture = conditions
            .iter()
            .any(|c| c.surface.gives_cli())
            .then(crate::programs::capture)
            .transpose()?;
        // Last: a default directory is made as it is named.
        let (out, made_out) = default_out::given_or_made(self.out, "study")?;
        let provenance =
            crate::study::provenance::Provenance::now(&crate::study::provenance::Given {
                mur: &runner.mur,
                sample: &runner.sample,
                capture: capture.as_deref(),
                task_dir: &tasks_from,
                condition_dir: &conditions_from,
                verbs: (!verbs.as_os_str().is_empty()).then_some(verbs.as_path()),
                pass_env: &self.runner.pass_env,
                jobs: self.jobs as usize,
                html,
                out: &out,
            });
        Ok(crate::study::Study {
            provenance,
            capture,
            conditions,
            tasks,
            repeats: self.repeats,
            agent: self.agent,
            agent_format: self.agent_format,
            jobs: self.jobs as usize,
            out,
            made_out,
            seed: self.seed,
            verbs,
            runner,
        })
    }
}

impl ReportArgs {
    /// `--html`, checked against the study in `dir`.
    pub fn page(&self) -> Result<Option<PageOut>> {
        let named = self.html.clone().map(Named::read).transpose()?;
        named
            .map(|named| named.checked(&self.dir, Dir::Made))
            .transpose()
    }
}

impl RunnerArgs {
    /// `--task-dir`, else the shipped tasks.
    pub fn task_dir(&self) -> Result<PathBuf> {
        task_dir(self.task_dir.clone())
    }

    /// A warning for each `--pass-env` name that is not set here: the agent will not get
    /// it (an API key forgotten gives every run an agent that fails at once).
    pub fn unset_pass_env(&self) -> Vec<String> {
        self.pass_env
            .iter()
            .filter(|name| std::env::var_os(name).is_none())
            .map(|name| {
                format!("--pass-env {name}: `{name}` is not set here, so the agent does not get it")
            })
            .collect()
    }

    /// The binaries found, the time limit and the variables to pass on.
    fn runner(&self) -> Result<Runner> {
        let pass_env = self
            .pass_env
            .iter()
            .filter_map(|name| std::env::var_os(name).map(|value| (OsString::from(name), value)))
            .collect();
        Ok(Runner {
            time_limit: self.time_limit.map_or(TIME_LIMIT, Duration::from_secs),
            time_limit_forced: self.time_limit.is_some(),
            mur: binary(self.mur.clone(), "mur", "--mur")?,
            sample: binary(self.sample.clone(), "mur-sample", "--sample")?,
            pass_env,
        })
    }

    /// `--verbs`, else the installed verbs when `needed` (else none).
    fn verbs(&self, needed: bool) -> Result<PathBuf> {
        match &self.verbs {
            Some(dir) => Ok(dir.clone()),
            None if !needed => Ok(PathBuf::new()),
            None => installed_verbs().ok_or_else(|| {
                Error::usage("no verb directory: neither XDG_DATA_HOME nor HOME is set")
                    .with_hint("name one with `--verbs DIR`")
            }),
        }
    }
}

/// An option typed with an empty value (`--jobs=`, `--repeats ''`, `--out=`), refused by
/// [`NotEmpty`] and said as mur says one: `` `--jobs <J>` needs a value (it was given
/// empty)`` ([`mur_core::given_empty`]) — not clap's ``invalid value `` for `--jobs <J>`:
/// `` is not a whole number…``, its quotes around nothing, nor, of a path, its "a value
/// is required", which is its word for one missing (`--out` typed last), said as clap
/// says it. `None` for any other error.
pub fn given_empty(e: &clap::Error) -> Option<Error> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    use std::error::Error as _;
    if e.kind() != ErrorKind::ValueValidation || !e.source().is_some_and(|s| s.is::<Empty>()) {
        return None;
    }
    match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(option)) => Some(Error::usage(mur_core::given_empty(option))),
        _ => None,
    }
}

/// A value parser of mur-eval's that refuses an empty value before `P` reads it, as
/// [`Empty`]: [`given_empty`] then knows the value was typed empty, where clap says a
/// path's empty value as one missing.
#[derive(Clone)]
struct NotEmpty<P>(P);

impl<P: TypedValueParser> TypedValueParser for NotEmpty<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<Self::Value, clap::Error> {
        if value.is_empty() {
            // Refused as a value parser refuses one: clap names the option.
            let refuse = |_: &str| Err::<P::Value, _>(Empty);
            return refuse.parse_ref(cmd, arg, value);
        }
        self.0.parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        self.0.possible_values()
    }
}

/// An empty value, which [`NotEmpty`] refused.
#[derive(Debug)]
struct Empty;

impl std::fmt::Display for Empty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("it was given empty")
    }
}

impl std::error::Error for Empty {}

/// A path option's value parser: clap's, [`NotEmpty`].
fn path() -> NotEmpty<PathBufValueParser> {
    NotEmpty(PathBufValueParser::new())
}

/// The value parser of an option that takes one of `E`'s values: clap's, [`NotEmpty`].
fn one_of<E: ValueEnum + Clone + Send + Sync + 'static>() -> NotEmpty<EnumValueParser<E>> {
    NotEmpty(EnumValueParser::new())
}

/// Where `mur` keeps the verbs installed for the user running mur-eval.
fn installed_verbs() -> Option<PathBuf> {
    let absolute = |var: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let data = absolute("XDG_DATA_HOME")
        .or_else(|| absolute("HOME").map(|home| home.join(".local").join("share")))?;
    Some(data.join("mur").join("verbs"))
}

#[cfg(test)]
mod tests {
    use super::*;

    use clap::CommandFactory as _;
    use std::path::Path;

    #[test]
    fn a_time_limit_is_a_whole_number_of_seconds_from_one() {
        assert_eq!(time_limit_secs("300"), Ok(300));
        assert_eq!(time_limit_secs("18446744073709551615"), Ok(u64::MAX));
        for (typed, said) in [
            ("0", "the time limit must be at least 1 second".to_owned()),
            (
                "18446744073709551616",
                "the time limit is at most 18446744073709551615 seconds".to_owned(),
            ),
            ("-1", "the time limit must be at least 1 second".to_owned()),
            (
                "2m",
                "`2m` is not a whole number of seconds (e.g. `300`)".to_owned(),
            ),
        ] {
            assert_eq!(time_limit_secs(typed), Err(said), "{typed}");
        }
    }

    /// `--repeats` from 1, said as `--time-limit` is; `--seed` a whole number from 0, a
    /// negative one refused as no seed.
    #[test]
    fn repeats_and_a_seed_are_refused_in_murs_words() {
        assert_eq!(repeats("3"), Ok(3));
        for (typed, said) in [
            ("0", "the number of repeats must be at least 1"),
            ("4294967296", "the number of repeats is at most 4294967295"),
            ("x", "`x` is not a whole number of repeats (e.g. `3`)"),
        ] {
            assert_eq!(repeats(typed), Err(said.to_owned()), "{typed}");
        }
        assert_eq!(seed("0"), Ok(0));
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        let refused = Err("a seed is a whole number from 0 to 18446744073709551615".to_owned());
        for typed in ["-1", "x", "18446744073709551616", ""] {
            assert_eq!(seed(typed), refused, "{typed}");
        }
        let parsed = |args: &[&str]| {
            let argv = [&["mur-eval", "study", "--agent", "true"][..], args].concat();
            Cli::try_parse_from(argv)
                .map(drop)
                .map_err(|e| e.to_string())
        };
        // The same words on the command line.
        for (args, said) in [
            (
                ["--seed", "-1"],
                "a seed is a whole number from 0 to 18446744073709551615",
            ),
            (
                ["--repeats", "0"],
                "the number of repeats must be at least 1",
            ),
        ] {
            let error = parsed(&args).expect_err("refused");
            assert!(error.contains(said), "{args:?}: {error}");
        }
    }

    /// `--jobs` from 1 to 64; a negative count of any option is below its bound.
    #[test]
    fn jobs_and_negative_counts_are_refused_in_murs_words() {
        assert_eq!(jobs("1"), Ok(1));
        assert_eq!(jobs("+64"), Ok(64));
        for (typed, said) in [
            ("0", "the number of runs at once must be at least 1"),
            ("-1", "the number of runs at once must be at least 1"),
            ("65", "the number of runs at once is at most 64"),
            (
                "99999999999999999999",
                "the number of runs at once is at most 64",
            ),
            ("", "`` is not a whole number of runs (e.g. `2`)"),
            ("two", "`two` is not a whole number of runs (e.g. `2`)"),
        ] {
            assert_eq!(jobs(typed), Err(said.to_owned()), "{typed}");
        }
        assert_eq!(
            repeats("-2"),
            Err("the number of repeats must be at least 1".to_owned())
        );
    }

    /// An empty value is said as mur says one, whichever parser refused it; a value
    /// missing, or not empty, is left as clap says it.
    #[test]
    fn an_empty_value_is_said_to_be_given_empty() {
        let refused = |args: &[&str]| {
            let argv: Vec<OsString> = [&["mur-eval", "study", "--agent", "true"][..], args]
                .concat()
                .into_iter()
                .map(OsString::from)
                .collect();
            let error = Cli::try_parse_from(&argv).map(drop).expect_err("refused");
            given_empty(&error).map(|e| e.message().to_owned())
        };
        for (args, option) in [
            (&["--jobs="][..], "--jobs <J>"),
            (&["--jobs", ""], "--jobs <J>"),
            (&["--repeats="], "--repeats <N>"),
            (&["--time-limit", ""], "--time-limit <SECS>"),
            (&["--seed="], "--seed <N>"),
            (&["--out="], "--out <DIR>"),
            (&["--out", ""], "--out <DIR>"),
            (&["--task-dir="], "--task-dir <DIR>"),
            (&["--agent-format="], "--agent-format <FORMAT>"),
            (&["--pass-env", ""], "--pass-env <NAME>"),
            (&["--against="], "--against <CONDITION>"),
        ] {
            assert_eq!(
                refused(args),
                Some(format!("`{option}` needs a value (it was given empty)")),
                "{args:?}"
            );
        }
        for args in [&["--jobs", "0"][..], &["--out"], &["--jobs"]] {
            assert_eq!(refused(args), None, "{args:?}");
        }
        // The study's directory typed empty (`report "$DIR"`, the variable unset) is said
        // so too: clap said it as one missing, "a value is required for `<DIR>`".
        let empty = Cli::try_parse_from(["mur-eval", "report", ""])
            .map(drop)
            .expect_err("refused");
        assert_eq!(
            given_empty(&empty).map(|e| e.message().to_owned()),
            Some("`<DIR>` needs a value (it was given empty)".to_owned())
        );
        // A value missing is not one given empty, whatever other word reads `--html=`
        // (here the study's directory, after `--`): it was once taken for it.
        let missing = ["mur-eval", "report", "--html", "--", "--html="];
        let error = Cli::try_parse_from(missing).map(drop).expect_err("refused");
        assert!(given_empty(&error).is_none(), "{error}");
    }

    /// A list option's empty value is said with what it takes; a comma too many as that.
    #[test]
    fn an_empty_name_in_a_list_is_said_with_what_the_list_takes() {
        let possible = || ["a", "b"].into_iter();
        let given = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>();
        assert!(no_empty_name(TASKS, &given(&["a"]), possible()).is_ok());
        assert!(no_empty_name(TASKS, &[], possible()).is_ok());
        let said = |names: &[&str]| {
            let error = no_empty_name(TASKS, &given(names), possible()).expect_err("refused");
            assert_eq!(error.exit_code(), 1);
            error.message().to_owned()
        };
        assert_eq!(
            said(&[""]),
            "`--tasks <IDS>` needs a value (it was given empty; possible values: a, b)"
        );
        assert_eq!(
            said(&["a", ""]),
            "`--tasks <IDS>` holds an empty name (`a,`: a comma too many; possible values: a, b)"
        );
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn the_shipped_files_are_read_from_the_source_tree_while_it_is_there() {
        assert_eq!(task_dir(None).expect("the tree"), Path::new(TASK_DIR));
        let given = PathBuf::from("/elsewhere/tasks");
        assert_eq!(task_dir(Some(given.clone())).expect("given"), given);
        let gone =
            shipped_dir(None, "/nonexistent/eval/tasks", "task", "--task-dir").expect_err("gone");
        assert_eq!(gone.exit_code(), 1);
        assert_eq!(
            gone.message(),
            "no task directory: the tasks shipped with mur-eval are read from the source tree it \
             was built from, and `/nonexistent/eval/tasks` is gone"
        );
        assert_eq!(
            gone.hints(),
            ["name one with `--task-dir DIR` (eval/tasks of a mur checkout)"]
        );
    }

    #[test]
    fn the_shipped_tasks_load_and_cover_every_category() {
        let tasks = task::load_dir(Path::new(TASK_DIR)).expect("the shipped tasks are valid");
        assert!(tasks.len() >= 12, "{} tasks", tasks.len());
        for category in task::CATEGORIES {
            assert!(
                tasks
                    .iter()
                    .any(|t| t.categories.iter().any(|c| c == category)),
                "no task covers `{category}`"
            );
        }
    }
}
