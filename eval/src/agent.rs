//! Running the agent command for one task: its placeholders filled in (shell-quoted),
//! run by `sh -c` in the task's working directory with the profile's environment and
//! nothing else, its stdout and stderr kept as the transcript, in a process group of its
//! own that is killed whole at the time limit (and whatever it left running, after: the
//! group, and what left it, [`crate::orphans`]).

use std::ffi::OsString;
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use mur_core::text::escape_value;
use mur_core::{Error, Result};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use crate::group::Group;
use crate::profile::Profile;

const POLL: Duration = Duration::from_millis(10);

/// The most of the agent's stdout, and of its stderr, that is kept: what it prints past
/// it is read and dropped (the agent is never blocked on a full pipe), so an agent that
/// loops printing does not fill the disk. The cap of `agent.stdout` is also what a study
/// reads of it for an event stream.
pub const OUTPUT_CAP: u64 = 64 << 20;

/// How long the output of an agent that has ended is waited for: a process that left its
/// group (`setsid`) may hold the pipe open for ever; what it prints later is still kept
/// up to the cap, but the run does not wait for it.
const OUTPUT_WAIT: Duration = Duration::from_secs(2);

/// What one task gives the agent command.
pub struct Invocation<'a> {
    pub command: &'a str,
    pub profile: Profile,
    pub task: &'a str,
    pub prompt: &'a str,
    pub prompt_file: &'a Path,
    pub workdir: &'a Path,
    /// The MCP configuration file (MCP profile only).
    pub mcp_config: Option<&'a Path>,
    pub env: Vec<(OsString, OsString)>,
    pub stdout: PathBuf,
    pub stderr: PathBuf,
    pub limit: Duration,
    /// Where the agent's process group is recorded while it runs ([`crate::group`]).
    pub group: Option<PathBuf>,
    /// The most of each of stdout and stderr kept ([`OUTPUT_CAP`]).
    pub output_cap: u64,
}

/// How the agent ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Ended {
    /// Its exit code; `None` when a signal ended it.
    pub exit: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub wall: Duration,
    /// What of its output was not kept, one note per file cut at the cap.
    pub notes: Vec<String>,
}

/// Refuses a command that reaches for the other profile's surface: `{mcp_config}` under
/// the CLI profile. Under the MCP profile, a command that runs `mur devtools` itself gets
/// a warning: `mur` is off the agent's `PATH`, but a path to it still works.
pub fn check_command(command: &str, profile: Profile) -> Result<Option<String>> {
    match profile {
        Profile::Cli if command.contains("{mcp_config}") => Err(Error::usage(
            "the agent command uses `{mcp_config}`, but the cli profile gives the agent no MCP configuration",
        )
        .with_hint("run it with `--profile mcp`, or drop `{mcp_config}` from the command")),
        Profile::Mcp if command.contains("mur devtools") => Ok(Some(
            "the agent command runs `mur devtools` itself, under the mcp profile: its calls will count as cli calls"
                .to_owned(),
        )),
        _ => Ok(None),
    }
}

/// Refuses an agent command whose program cannot start in any run, before a run is made
/// (exit 1): a command `sh` cannot parse ([`check_syntax`]); a name the agent's `PATH`
/// (`path`, [`crate::profile::agent_path`]) does not find, a path that does not exist, or
/// a relative path, which `sh` would resolve in each run's own working directory; a path
/// under `~/` (or `$HOME/`), expanded as the run's `sh` expands it ([`tilde`]: `home`, the agent's
/// `HOME` when it is mur-eval's own, `--pass-env HOME`; else each run's own, empty);
/// the script a shell is told to run (`sh agent.sh`), on the same terms
/// ([`shell_script`]): a shell that cannot open it exits 2 under dash, which no early
/// stop reads as "never started"; and a `{word}` that is no placeholder
/// ([`check_placeholders`]; `more`, those the caller replaces itself, a study's
/// [`STUDY_PLACEHOLDERS`]). Its warnings: a later word that is a relative path to a file
/// here (`python3 eval/agents/x.py`), which the agent, in its own directory, will not find.
/// Only the first word is judged as the program, after `NAME=value` assignments; a
/// command `shlex` cannot split, or that holds what only a shell reads (an expansion,
/// a substitution, a list, a pipe, a redirection: `f=$(find "$D" …); sed …`, whose
/// words `shlex` splits otherwise than `sh`), is left to the runs and the study's
/// early stop. A command with no program at all (empty: `--agent "$AGENT"` with the
/// variable unset; only assignments or a comment) is refused: `sh -c` runs it and exits
/// 0, and every run would be recorded as the surface's failure.
pub fn check_program(
    command: &str,
    path: &std::ffi::OsStr,
    home: Option<&Path>,
    more: &[&str],
) -> Result<Vec<String>> {
    const SHELL_SYNTAX: [char; 10] = ['$', '`', ';', '|', '&', '(', ')', '<', '>', '\n'];
    if command.trim().is_empty() {
        return Err(no_program("is empty"));
    }
    check_syntax(command, path)?;
    check_placeholders(command, more)?;
    // A word under `$HOME/` is judged as one under `~/`: the only expansion read here.
    let judged = !without_home(command).contains(SHELL_SYNTAX);
    let words = shlex::split(command).filter(|_| judged);
    let Some(words) = words else {
        return Ok(Vec::new());
    };
    let mut words = words.iter().skip_while(|w| is_assignment(w));
    let Some(program) = words.next() else {
        return Err(no_program(&format!("`{command}` names no program")));
    };
    let hint = BY_ABSOLUTE_PATH;
    if program.contains('/') {
        let expanded = tilde(&format!("the agent's program `{program}`"), program, home)?;
        let found = expanded.as_deref().unwrap_or(Path::new(program));
        if found.is_relative() || !found.exists() {
            let why = if found.is_relative() {
                "is a relative path, which each run resolves in its own working directory"
            } else {
                "does not exist"
            };
            return Err(
                Error::usage(format!("the agent's program `{program}` {why}")).with_hint(hint),
            );
        }
    } else if program != "mur" && !on_path(program, path) {
        return Err(Error::usage(format!(
            "the agent's program `{program}` is not found on the PATH the agent runs with"
        ))
        .with_hint(
            "install it, or name it by absolute path (the agent's PATH is mur-eval's, without the directories that hold a `mur`)",
        ));
    }
    let args: Vec<&String> = words.collect();
    if let Some(script) = shell_script(program, &args) {
        check_script(program, script, path, home)?;
    }
    Ok(args
        .into_iter()
        .filter(|w| is_file_here(w))
        .map(|w| format!("the agent command names `{w}`, a relative path, which the agent will look for in its run's own working directory; {hint}"))
        .collect())
}

/// Refuses a command the runs' `sh` cannot parse (`claude ((`), asked once with `sh -n
/// -c`, which reads the command and runs nothing: each run's `sh -c` would exit 2 with
/// the same message before running anything, which no early stop reads as "never
/// started", and every run would be recorded as the surface's failure. The placeholders
/// are plain words to `sh`, so the command is asked as written. `sh` is looked up on
/// `path`, as the runs look it up; when there is none to ask, the runs say what they find.
fn check_syntax(command: &str, path: &std::ffi::OsStr) -> Result<()> {
    let Ok(parsed) = sh_asked(&["-n", "-c", command], path)
        .stderr(Stdio::piped())
        .output()
    else {
        return Ok(());
    };
    if parsed.status.success() {
        return Ok(());
    }
    Err(Error::usage(format!(
        "the agent command is not valid shell, so no run would run an agent: {}",
        sh_said(&String::from_utf8_lossy(&parsed.stderr), parsed.status.code())
    ))
    .with_hint(
        "`sh -c` runs the command as written, each placeholder replaced by its value shell-quoted: check its quotes and brackets",
    ))
}

/// What `sh -n` said of a command it could not parse (`stderr`, its lines on one line,
/// each without the shell's own name and `-c` before it: dash's `sh: 1: Syntax error`,
/// bash's `sh: -c: line 1: syntax error`, both `line 1: …`), else how it exited. Said
/// after a colon, not quoted: bash's own message quotes a token in a backtick and an
/// apostrophe (`` near unexpected token `(' ``), which backticks around it would break;
/// escaped ([`escape_value`]), as the command's text it may echo can hold any character.
fn sh_said(stderr: &str, code: Option<i32>) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return format!("`sh -n` exited {}", code.unwrap_or(-1));
    }
    let lines: Vec<String> = lines.into_iter().map(without_shell_name).collect();
    format!("`sh -n` said: {}", escape_value(&lines.join("; ")))
}

/// A line of a shell's message without the shell's name (`sh: `, `/bin/sh: `) and `-c: `
/// before it, and its line number said as one (dash's `1: ` as bash's `line 1: `).
fn without_shell_name(line: &str) -> String {
    let rest = match line.split_once(": ") {
        Some((name, rest)) if !name.is_empty() && !name.contains(' ') => rest,
        _ => return line.to_owned(),
    };
    let rest = rest.strip_prefix("-c: ").unwrap_or(rest);
    match rest.split_once(": ") {
        Some((number, after))
            if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) =>
        {
            format!("line {number}: {after}")
        }
        _ => rest.to_owned(),
    }
}

/// `word` (the program or script `named`) with a leading `~/`, `$HOME/` or `${HOME}/`
/// ([`HOME_PREFIXES`]: a `$HOME` the operator's shell left alone, in single quotes, is the
/// run's to expand) expanded as the run's `sh`
/// expands it: with `home`, the agent's `HOME` when it is mur-eval's own (`--pass-env
/// HOME`); `None` for any other word (`~user/…` is left to the runs). Refused when
/// `home` is `None`: each run's `HOME` is a directory of its own, made empty, where
/// nothing the command names is; and when the file is not in `home`, naming where it was
/// looked for. Each hint is true to the case: the general "`$PWD/…`" one does not fit a
/// word under `~/`, nor does naming mur-eval's `HOME` where the file is not there either.
fn tilde(named: &str, word: &str, home: Option<&Path>) -> Result<Option<PathBuf>> {
    let Some((prefix, rest)) = under_home(word) else {
        return Ok(None);
    };
    const WHERE_IT_IS: &str = "name it by absolute path, where it is";
    if let Some(home) = home {
        let expanded = home.join(rest);
        if expanded.exists() {
            return Ok(Some(expanded));
        }
        return Err(Error::usage(format!(
            "{named} is `{}` with your `HOME` passed on (`--pass-env HOME`), which does not exist",
            expanded.display()
        ))
        .with_hint(WHERE_IT_IS));
    }
    let error = Error::usage(format!(
        "{named} is under `{prefix}`, which each run's `sh` expands to the run's own `HOME`, an empty directory"
    ));
    // mur-eval's own `HOME`, where the user meant it, when it is known here.
    let yours = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute())
        .map(|h| h.join(rest));
    Err(match yours {
        Some(yours) if yours.exists() => error.with_hint(format!(
            "name it by absolute path (`{}`), or give the agent your `HOME` with `--pass-env HOME`",
            yours.display()
        )),
        Some(yours) => error.with_hint(format!(
            "{WHERE_IT_IS}: `{}`, in your `HOME`, does not exist either",
            yours.display()
        )),
        None => error.with_hint("name it by absolute path"),
    })
}

/// How a word names a path under the `HOME` of the run's `sh`: `~/`, `$HOME/`, `${HOME}/`.
const HOME_PREFIXES: [&str; 3] = ["~/", "$HOME/", "${HOME}/"];

/// `word` under the run's `HOME` ([`HOME_PREFIXES`]): the prefix without its `/`, and
/// the path after it.
fn under_home(word: &str) -> Option<(&'static str, &str)> {
    HOME_PREFIXES.iter().find_map(|prefix| {
        let rest = word.strip_prefix(prefix)?;
        Some((prefix.trim_end_matches('/'), rest))
    })
}

/// `command` with each `$HOME/` and `${HOME}/` that begins a word (or a double-quoted
/// one) taken out: the expansions [`tilde`] reads, which leave the words `shlex` splits
/// as `sh` splits them.
fn without_home(command: &str) -> String {
    let mut kept = String::with_capacity(command.len());
    let mut rest = command;
    let mut word_start = true;
    while let Some(c) = rest.chars().next() {
        let home = HOME_PREFIXES[1..]
            .iter()
            .find(|prefix| word_start && rest.starts_with(*prefix));
        if let Some(prefix) = home {
            rest = &rest[prefix.len()..];
            word_start = false;
            continue;
        }
        kept.push(c);
        rest = &rest[c.len_utf8()..];
        word_start = c.is_whitespace() || c == '"';
    }
    kept
}

/// How a program or a script every run can find is named.
const BY_ABSOLUTE_PATH: &str = "name the agent's scripts and programs by absolute path (`$PWD/…`): each run's working directory is its own";

/// The placeholders [`substitute`] replaces, without their braces.
const PLACEHOLDERS: [&str; 6] = [
    "task",
    "prompt",
    "prompt_file",
    "workdir",
    "mcp_config",
    "profile",
];

/// The placeholders a study replaces in the agent command before each run's
/// ([`crate::study`]), without their braces.
pub const STUDY_PLACEHOLDERS: [&str; 2] = ["condition", "surface"];

/// Refuses a `{word}` in `command` that is no placeholder (`{taks}`; `more` are
/// placeholders too), which would reach the agent as typed in every run, and a
/// placeholder written as a shell expansion (`${task}`), which is replaced by its quoted
/// value after the `$`. Only an
/// identifier in braces is judged: `${HOME}` is the shell's, `{"a":1}` and `{a,b}` are no
/// placeholders; within single quotes (an `awk '{print}'` or `jq '{name}'` program) only
/// a word one slip from a placeholder is.
fn check_placeholders(command: &str, more: &[&str]) -> Result<()> {
    let known: Vec<&str> = PLACEHOLDERS.iter().chain(more).copied().collect();
    let mut quote = None;
    let mut chars = command.char_indices();
    let mut after_dollar = false;
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' if quote != Some('\'') => {
                chars.next();
            }
            '\'' | '"' if quote.is_none() => quote = Some(c),
            _ if quote == Some(c) => quote = None,
            '{' => {
                if let Some(word) = braced_word(&command[at + 1..]) {
                    judge_placeholder(word, &known, after_dollar, quote == Some('\''))?;
                }
            }
            _ => {}
        }
        after_dollar = c == '$';
    }
    Ok(())
}

/// The identifier that `rest` (what follows a `{`) holds before its `}`, if that is all.
fn braced_word(rest: &str) -> Option<&str> {
    let (word, _) = rest.split_once('}')?;
    let identifier = word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    identifier.then_some(word)
}

/// Refuses `{word}` as [`check_placeholders`] says; `placeholders`, all there are.
fn judge_placeholder(
    word: &str,
    placeholders: &[&str],
    after_dollar: bool,
    single_quoted: bool,
) -> Result<()> {
    let known = placeholders.contains(&word);
    if known && after_dollar {
        return Err(Error::usage(format!(
            "the agent command has `${{{word}}}`, a shell expansion of the placeholder `{{{word}}}`, which would be replaced after the `$`"
        ))
        .with_hint(format!(
            "write `{{{word}}}` for the placeholder (its value shell-quoted), or `${word}` for a shell variable"
        )));
    }
    let slip = placeholders.iter().any(|p| mur_core::is_typo_of(word, p));
    if known || after_dollar || (single_quoted && !slip) {
        return Ok(());
    }
    let all: Vec<String> = placeholders.iter().map(|p| format!("{{{p}}}")).collect();
    let all = all.join(", ");
    let hint = match mur_core::nearest(word, placeholders.iter().copied()) {
        Some(near) => format!("did you mean `{{{near}}}`? The placeholders are {all}"),
        None => format!("the placeholders are {all}"),
    };
    Err(Error::usage(format!(
        "the agent command has `{{{word}}}`, which is no placeholder: every run's agent would get it as typed"
    ))
    .with_hint(hint))
}

/// The script a shell (`sh`, `bash`, …, by any path) is told to run by `args`: its first
/// word that is neither an option nor an option's argument. `None` when it runs no script
/// (`-c`, `-s`, `-i`: its commands come from elsewhere), for a program that is no shell,
/// and for a word the shell itself expands (`~user/x.sh`, a glob, a placeholder) but a
/// leading `~/` or `$HOME/`, which [`check_script`] expands as the run's `sh` does.
fn shell_script<'a>(program: &str, args: &[&'a String]) -> Option<&'a str> {
    const SHELLS: [&str; 6] = ["sh", "bash", "dash", "zsh", "ksh", "mksh"];
    let name = Path::new(program).file_name()?.to_str()?;
    if !SHELLS.contains(&name) {
        return None;
    }
    let mut args = args.iter().map(|a| a.as_str());
    let script = loop {
        match args.next()? {
            "--" => break args.next()?,
            "-" | "+" => return None,
            "--rcfile" | "--init-file" => {
                args.next();
            }
            long if long.starts_with("--") => {}
            short if short.starts_with(['-', '+']) => {
                if short.contains(['c', 's', 'i']) {
                    return None;
                }
                // `-o errexit`, bash's `-O extglob`: the option's argument is next.
                if short.ends_with(['o', 'O']) {
                    args.next();
                }
            }
            script => break script,
        }
    };
    let rest = under_home(script).map_or(script, |(_, rest)| rest);
    let expanded =
        (rest == script && script.starts_with('~')) || rest.contains(['{', '*', '?', '[']);
    (!expanded).then_some(script)
}

/// Refuses the `script` a `shell` would run in each run's working directory when no run
/// finds it: an absolute path that does not exist, or a relative one (the run's directory
/// holds only the task's files); a bare name on the agent's `PATH` is let through, as
/// bash looks a script up there. A leading `~/` or `$HOME/` is expanded with `home`
/// ([`tilde`]).
fn check_script(
    shell: &str,
    script: &str,
    path: &std::ffi::OsStr,
    home: Option<&Path>,
) -> Result<()> {
    let named = format!("the agent's script `{script}` (run by `{shell}`)");
    let expanded = tilde(&named, script, home)?;
    let file = expanded.as_deref().unwrap_or(Path::new(script));
    let why = if file.is_absolute() {
        if file.exists() {
            return Ok(());
        }
        "does not exist"
    } else {
        let on_path = !script.contains('/')
            && std::env::split_paths(path).any(|dir| dir.join(script).is_file());
        if on_path {
            return Ok(());
        }
        "is a relative path, which each run resolves in its own working directory"
    };
    Err(Error::usage(format!("{named} {why}")).with_hint(BY_ABSOLUTE_PATH))
}

/// Whether `word` is a relative path to a file here, or a directory through a `/`
/// (`eval/agents`), which the agent, in its own working directory, will not find.
fn is_file_here(word: &str) -> bool {
    let path = Path::new(word);
    path.is_relative()
        && if word.contains('/') {
            path.exists()
        } else {
            path.is_file()
        }
}

/// The refusal of an agent command that runs nothing: it `why`.
fn no_program(why: &str) -> Error {
    Error::usage(format!(
        "the agent command {why}, so no run would run an agent"
    ))
    .with_hint(
        "give `--agent` the command that runs the agent on a task (`--help` says its placeholders)",
    )
}

/// A shell's `NAME=value` word before the program.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// `sh` with `args`, as the runs find it: on `path` alone, no other environment, nothing
/// on stdin and its stdout dropped (what it is asked is told by its exit and stderr).
fn sh_asked(args: &[&str], path: &std::ffi::OsStr) -> Command {
    let mut sh = Command::new("sh");
    sh.args(args)
        .env_clear()
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    sh
}

/// Whether `sh` finds `name` with `PATH` set to `path`: a program, or one of its
/// builtins or keywords (`cd`, `if`), as `command -v` says.
fn on_path(name: &str, path: &std::ffi::OsStr) -> bool {
    sh_asked(
        &["-c", "command -v \"$1\" >/dev/null 2>&1", "sh", name],
        path,
    )
    .stderr(Stdio::null())
    .status()
    // No `sh` to ask: the runs will say what they find.
    .map_or(true, |status| status.success())
}

/// What an exit code of `sh -c` says when it says the agent never started: 127, a
/// command not found; 126, one that could not be run (`None` for any other).
pub fn could_not_start(exit: Option<i32>) -> Option<String> {
    match exit? {
        127 => Some("agent exit 127: its command was not found".to_owned()),
        126 => Some("agent exit 126: its command could not be run".to_owned()),
        _ => None,
    }
}

/// How a task's progress line (`mur-eval run`'s and a study's alike) begins its figures
/// when the agent did not end well: its nonzero exit (126 and 127 said as
/// [`could_not_start`] says them), then `timed out`, each followed by `; ` (empty for
/// an agent that exited 0 in time). Every run FAIL with 0 calls reads as the surface's
/// fault until one sees the agent exited 1 at once (an API key refused).
pub fn ended_badly(exit: Option<i32>, timed_out: bool) -> String {
    let exit = could_not_start(exit).or_else(|| match exit {
        Some(code) if code != 0 => Some(format!("agent exit {code}")),
        _ => None,
    });
    exit.into_iter()
        .chain(timed_out.then(|| "timed out".to_owned()))
        .map(|why| why + "; ")
        .collect()
}

/// `command` with its placeholders replaced, each value shell-quoted.
pub fn substitute(invocation: &Invocation) -> Result<String> {
    let path = |p: &Path| p.to_string_lossy().into_owned();
    let values = [
        ("{task}", invocation.task.to_owned()),
        ("{prompt}", invocation.prompt.to_owned()),
        ("{prompt_file}", path(invocation.prompt_file)),
        ("{workdir}", path(invocation.workdir)),
        (
            "{mcp_config}",
            invocation.mcp_config.map(path).unwrap_or_default(),
        ),
        ("{profile}", invocation.profile.name().to_owned()),
    ];
    replace_once(invocation.command, &values)
}

/// `command` with each of `values`' placeholders replaced by its value shell-quoted, in
/// one pass: a value's text is never read for placeholders again (a prompt that says
/// `{workdir}` reaches the agent as it was written).
pub fn replace_once(command: &str, values: &[(&str, String)]) -> Result<String> {
    let mut out = String::with_capacity(command.len());
    let mut rest = command;
    'scan: while !rest.is_empty() {
        for (placeholder, value) in values {
            if let Some(after) = rest.strip_prefix(placeholder) {
                let quoted = shlex::try_quote(value).map_err(|_| {
                    Error::usage(format!(
                        "cannot quote the value of `{placeholder}` for the shell (a NUL byte)"
                    ))
                })?;
                out.push_str(&quoted);
                rest = after;
                continue 'scan;
            }
        }
        let next = rest.chars().next().map_or(1, char::len_utf8);
        out.push_str(&rest[..next]);
        rest = &rest[next..];
    }
    Ok(out)
}

/// Runs the agent to its end or its time limit.
pub fn run(invocation: &Invocation) -> Result<Ended> {
    let command = substitute(invocation)?;
    let stdout = create(&invocation.stdout)?;
    let stderr = create(&invocation.stderr)?;
    // Through pipes, each drained into its file up to the cap: a file handed to the
    // agent would grow as long as it printed.
    let started = Instant::now();
    // Inherited by all it starts: what tells this run's leftovers (`crate::orphans`).
    let marker = mur_procs::marker();
    let mut child = spawn(invocation, &command, &marker)?;
    let group = i32::try_from(child.id()).map(Pid::from_raw).ok();
    crate::stop::register(child.id(), Signal::SIGKILL);
    // Registered first: a signal that comes while the pipes are set up still stops it.
    let files = [(stdout, &invocation.stdout), (stderr, &invocation.stderr)];
    let draining = Draining::start(&mut child, files, invocation.output_cap);
    let recorded = record_group(invocation, child.id());
    // A limit past what the clock can count (`--time-limit 18446744073709551615`) is no
    // limit at all.
    let waited = wait(&mut child, group, started.checked_add(invocation.limit));
    let wall = started.elapsed();
    // Killed first: what the agent left holds its pipes open. Also when waiting failed:
    // its group would run on, its pid still registered for a signal to kill.
    let left = kill_what_it_left(child.id(), group, &marker, recorded);
    let (status, timed_out) = waited?;
    let mut notes = draining.notes(invocation.output_cap);
    notes.extend(left);
    notes.sort();
    Ok(Ended {
        exit: status.code(),
        signal: status.signal(),
        timed_out,
        wall,
        notes,
    })
}

/// `command` started by `sh -c` in the task's working directory, with the invocation's
/// environment and nothing else, `marker` in it; its output piped, in a process group of
/// its own.
fn spawn(invocation: &Invocation, command: &str, marker: &str) -> Result<mur_procs::Spawned> {
    let mut sh = Command::new("sh");
    crate::stop::unblocked(&mut sh)
        .arg("-c")
        .arg(command)
        .current_dir(invocation.workdir)
        .env_clear()
        .envs(invocation.env.iter().map(|(k, v)| (k, v)))
        // Last, so that no `--pass-env` replaces it.
        .env(crate::orphans::VAR, marker)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // Listed as its `Child`'s until reaped: mur-eval's reaping of what it adopted
    // (`mur_procs::reap_adopted`) never takes its status.
    mur_procs::spawn(&mut sh)
        .map_err(|e| Error::internal(format!("cannot run the agent command with `sh`: {e}")))
}

/// The agent's process group recorded where the invocation says ([`crate::group`]);
/// that file, to remove once the agent is gone.
fn record_group<'a>(invocation: &'a Invocation<'_>, leader: u32) -> Option<&'a Path> {
    let (path, leader) = invocation.group.as_deref().zip(Group::of(leader))?;
    leader.record(path);
    Some(path)
}

/// Waits for the agent to end, or kills its group at `deadline` (`None`: no limit);
/// how it ended, and whether the deadline ended it.
fn wait(
    child: &mut mur_procs::Spawned,
    group: Option<Pid>,
    deadline: Option<Instant>,
) -> Result<(ExitStatus, bool)> {
    let failed = |e: std::io::Error| Error::internal(format!("cannot wait for the agent: {e}"));
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok((status, false)),
            Ok(None) if deadline.is_some_and(|d| Instant::now() >= d) => {
                kill_group(group);
                return Ok((child.wait().map_err(failed)?, true));
            }
            Ok(None) => std::thread::sleep(POLL),
            Err(e) => return Err(failed(e)),
        }
    }
}

/// Nothing the agent started may outlive its task (or call the next task's session):
/// its group killed, then what left the group, once the agent (`pid`) has ended, and
/// the group's record removed. The note of what left the group, if anything did.
fn kill_what_it_left(
    pid: u32,
    group: Option<Pid>,
    marker: &str,
    recorded: Option<&Path>,
) -> Option<String> {
    kill_group(group);
    let left = crate::orphans::kill_left(marker, group.map(Pid::as_raw));
    crate::stop::unregister(pid);
    if let Some(path) = recorded {
        let _ = std::fs::remove_file(path);
    }
    (left > 0).then(|| {
        format!(
            "the agent left {left} {} running outside its process group; killed once it ended",
            if left == 1 { "process" } else { "processes" }
        )
    })
}

/// The agent's stdout and stderr, each drained into its file by a thread of its own
/// ([`drain`]), which sends the file's name and what it made of the pipe.
struct Draining {
    /// The names of the files still drained into.
    open: Vec<String>,
    drained: std::sync::mpsc::Receiver<(String, Drained)>,
}

impl Draining {
    /// `child`'s stdout and stderr drained into `files` (each with its path), the first
    /// `cap` bytes of each kept.
    fn start(child: &mut mur_procs::Spawned, files: [(File, &PathBuf); 2], cap: u64) -> Self {
        let (tx, drained) = std::sync::mpsc::channel();
        fn boxed(pipe: impl Read + Send + 'static) -> Box<dyn Read + Send> {
            Box::new(pipe)
        }
        let pipes = [
            child.stdout.take().map(boxed),
            child.stderr.take().map(boxed),
        ];
        let mut open = Vec::new();
        for (pipe, (file, path)) in pipes.into_iter().zip(files) {
            let Some(pipe) = pipe else { continue };
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            open.push(name.clone());
            let tx = tx.clone();
            std::thread::spawn(move || {
                let _ = tx.send((name, drain(pipe, file, cap)));
            });
        }
        Draining { open, drained }
    }

    /// What was not kept of the agent's output, once the agent has ended: a note per
    /// file cut at `cap` or whose write failed, and per file still open after
    /// [`OUTPUT_WAIT`].
    fn notes(self, cap: u64) -> Vec<String> {
        let Draining { mut open, drained } = self;
        let mut notes = Vec::new();
        for _ in 0..open.len() {
            let Ok((name, what)) = drained.recv_timeout(OUTPUT_WAIT) else {
                // A process the agent left (its own session, out of the group) still
                // holds the pipe: what it writes later is in no figure, and said so.
                notes.extend(open.iter().map(|name| {
                    format!("`{name}` still open after the agent ended; later output not counted")
                }));
                break;
            };
            open.retain(|n| *n != name);
            notes.extend(what.note(&name, cap));
        }
        notes
    }
}

/// What [`drain`] made of a pipe: the bytes written, those read and dropped, and why
/// writing stopped when it failed.
#[derive(Debug, PartialEq)]
struct Drained {
    kept: u64,
    dropped: u64,
    write_error: Option<String>,
}

impl Drained {
    /// What of the file `name` was not kept (`None`: all of it was), its cap `cap`.
    fn note(&self, name: &str, cap: u64) -> Option<String> {
        let Drained {
            kept,
            dropped,
            write_error,
        } = self;
        match write_error {
            Some(why) => Some(format!(
                "`{name}` could not be written past {kept} bytes ({why}): the {dropped} bytes \
                 the agent printed after were not kept"
            )),
            None if *dropped > 0 => Some(format!(
                "`{name}` was cut at {}: the {dropped} bytes the agent printed past it were not kept",
                mur_core::settings::human_bytes(cap)
            )),
            None => None,
        }
    }
}

/// Copies `pipe` into `file` until the pipe ends, the first `cap` bytes kept and the
/// rest read and dropped. A write that fails (a full disk, what the cap is for) ends
/// the keeping: the rest is read and counted as dropped, never written again.
fn drain(mut pipe: Box<dyn Read + Send>, mut file: impl Write, cap: u64) -> Drained {
    let (mut kept, mut dropped, mut write_error) = (0u64, 0u64, None);
    let mut buffer = vec![0u8; 64 << 10];
    loop {
        let n = match pipe.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let room = match write_error {
            Some(_) => 0,
            None => usize::try_from(cap.saturating_sub(kept))
                .unwrap_or(usize::MAX)
                .min(n),
        };
        if room > 0 {
            if let Err(e) = file.write_all(&buffer[..room]) {
                write_error = Some(e.to_string());
                dropped += room as u64;
            } else {
                kept += room as u64;
            }
        }
        dropped += (n - room) as u64;
    }
    Drained {
        kept,
        dropped,
        write_error,
    }
}

fn kill_group(group: Option<Pid>) {
    if let Some(group) = group {
        let _ = killpg(group, Signal::SIGKILL);
    }
}

fn create(path: &Path) -> Result<File> {
    File::create(path)
        .map_err(|e| Error::internal(format!("cannot write `{}`: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The PATH the tests judge the agent command with.
    const PATH: &str = "/usr/bin:/bin";

    /// [`check_program`] on [`PATH`], with no HOME passed and no study placeholder known.
    fn checked(command: &str) -> Result<Vec<String>> {
        check_program(command, std::ffi::OsStr::new(PATH), None, &[])
    }

    /// What [`check_program`] refuses `command` with.
    fn refused(command: &str) -> String {
        checked(command).expect_err(command).to_string()
    }

    fn invocation<'a>(command: &'a str, dir: &'a Path) -> Invocation<'a> {
        Invocation {
            command,
            profile: Profile::Mcp,
            task: "counter",
            prompt: "Say \"hi\"; then $(stop)",
            prompt_file: Path::new("/tmp/my prompt.md"),
            workdir: dir,
            mcp_config: Some(Path::new("/tmp/.mcp.json")),
            env: vec![("PATH".into(), "/usr/bin:/bin".into())],
            stdout: dir.join("out"),
            stderr: dir.join("err"),
            limit: Duration::from_secs(30),
            group: None,
            output_cap: OUTPUT_CAP,
        }
    }

    /// How `command` ended, run as [`invocation`] says with `edit` made to it, and what
    /// it left in `out` and `err` (its stdout and stderr, lossily).
    fn ran(command: &str, edit: impl FnOnce(&mut Invocation<'_>)) -> (Ended, String, String) {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut run = invocation(command, dir.path());
        edit(&mut run);
        let ended = super::run(&run).expect("runs");
        let kept = |name: &str| {
            let bytes = std::fs::read(dir.path().join(name)).expect("kept");
            String::from_utf8_lossy(&bytes).into_owned()
        };
        (ended, kept("out"), kept("err"))
    }

    #[test]
    fn output_past_the_cap_is_dropped_and_said() {
        let (ended, out, err) = ran(
            "head -c 5000 /dev/zero; printf 'short' >&2; exit 0",
            |run| run.output_cap = 1000,
        );
        assert_eq!(ended.exit, Some(0));
        assert_eq!((out.len(), err.as_str()), (1000, "short"));
        assert_eq!(
            ended.notes,
            ["`out` was cut at 1000 bytes: the 4000 bytes the agent printed past it were not kept"]
        );
    }

    /// A process the agent left in a session of its own, with an environment of its own
    /// (so nothing tells whose it is: `crate::orphans`), still holds its stdout: the run
    /// is not held for it, and the note says its later output is not counted.
    #[test]
    fn a_stream_still_open_after_the_agent_ended_is_said() {
        // The agent ends only once the process has left its group (`ready` is written
        // after setsid): ended before, the group's kill could take it along.
        let (ended, ..) = ran(
            "setsid env -i PATH=/usr/bin:/bin sh -c ': > ready; exec sleep 4' & \
             until [ -e ready ]; do sleep 0.01; done; echo started",
            |_| {},
        );
        assert_eq!(ended.exit, Some(0));
        assert_eq!(
            ended.notes,
            [
                "`err` still open after the agent ended; later output not counted",
                "`out` still open after the agent ended; later output not counted"
            ]
        );
    }

    /// A process the agent moved out of its group (`setsid`), still holding its stdout,
    /// is killed (and reaped) once the agent ends, and said; a process of the harness's
    /// own (as the run's session is) is left alone.
    #[cfg(target_os = "linux")]
    #[test]
    fn what_the_agent_left_outside_its_group_is_killed() {
        let _ = mur_procs::become_subreaper();
        let mut harness_own = Command::new("sleep").arg("30").spawn().expect("sleep runs");
        let dir = tempfile::tempdir().expect("tempdir");
        let escaped = dir.path().join("escaped");
        let command = format!(
            "setsid sh -c 'echo $$ > {0}.new; mv {0}.new {0}; exec sleep 30' & \
             until [ -s {0} ]; do sleep 0.01; done; echo started",
            escaped.display()
        );
        let started = Instant::now();
        let (ended, out, _) = ran(&command, |_| {});
        assert_eq!((ended.exit, out.as_str()), (Some(0), "started\n"));
        assert_eq!(
            ended.notes,
            ["the agent left 1 process running outside its process group; killed once it ended"]
        );
        // Not waited for: its pipes closed as it was killed.
        assert!(started.elapsed() < OUTPUT_WAIT, "{:?}", started.elapsed());
        let pid = std::fs::read_to_string(&escaped).expect("the escaped pid");
        let pid = pid.trim();
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "pid {pid} is still there"
        );
        assert!(matches!(harness_own.try_wait(), Ok(None)), "left running");
        let _ = harness_own.kill();
        let _ = harness_own.wait();
    }

    /// A file that cannot be written to (a full disk): the keeping ends at the first
    /// failed write, and all the rest is counted as dropped, not retried.
    #[test]
    fn a_failed_write_ends_the_keeping_and_the_rest_is_dropped() {
        struct Full(u64);
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                self.0 += 1;
                Err(std::io::Error::other(format!(
                    "disk full (write {})",
                    self.0
                )))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let pipe = Box::new(std::io::Cursor::new(vec![7u8; 200 << 10]));
        let mut full = Full(0);
        assert_eq!(
            drain(pipe, &mut full, 1 << 30),
            Drained {
                kept: 0,
                dropped: 200 << 10,
                write_error: Some("disk full (write 1)".to_owned()),
            }
        );
        assert_eq!(full.0, 1, "written once, never retried");
    }

    #[test]
    fn an_agent_program_that_cannot_start_is_refused_before_any_run() {
        assert_eq!(
            refused("no-such-agent --task {task}"),
            "the agent's program `no-such-agent` is not found on the PATH the agent runs with"
        );
        assert_eq!(
            refused("KEY=1 agents/scripted.sh {task}"),
            "the agent's program `agents/scripted.sh` is a relative path, which each run \
             resolves in its own working directory"
        );
        assert_eq!(
            refused("/nonexistent/agent {task}"),
            "the agent's program `/nonexistent/agent` does not exist"
        );
        // A program on the PATH, a shell keyword or builtin, `mur` (a cli profile's own).
        for found in [
            "sh -c true",
            "if true; then bash /x; fi",
            "cd /tmp && true",
            "A=1 B=2 true",
            "mur devtools guide",
            // Words a shell reads otherwise than `shlex`: not judged.
            r#"f=$(find "$XDG_RUNTIME_DIR" -name '*.json'); sed -E 's/a/b/' "$f""#,
            "$HOMEDIR/agent {task}",
            "no-such-agent {task} | tee log",
        ] {
            assert_eq!(checked(found).expect(found), Vec::<String>::new());
        }
        // A command that runs no agent: `sh -c` exits 0, and each run would count as the
        // surface's failure.
        for (nothing, said) in [
            ("", "the agent command is empty"),
            (" \t ", "the agent command is empty"),
            ("FOO=1", "the agent command `FOO=1` names no program"),
            (
                "A=1 B='x y'",
                "the agent command `A=1 B='x y'` names no program",
            ),
            ("# agent", "the agent command `# agent` names no program"),
        ] {
            assert_eq!(
                refused(nothing),
                format!("{said}, so no run would run an agent"),
                "{nothing:?}"
            );
        }
        // A file named relative to here (the crate's directory), which no run finds.
        for (command, word) in [
            ("true agents/scripted.sh {task}", "agents/scripted.sh"),
            ("true Cargo.toml {task}", "Cargo.toml"),
        ] {
            assert_eq!(
                checked(command).expect(command),
                [format!(
                    "the agent command names `{word}`, a relative path, which the agent \
                     will look for in its run's own working directory; name the agent's \
                     scripts and programs by absolute path (`$PWD/…`): each run's working \
                     directory is its own"
                )]
            );
        }
    }

    /// A shell's script that no run opens: dash exits 2 for it, which no early stop reads
    /// as "never started", so every run would be the surface's failure.
    #[test]
    fn a_shells_script_that_no_run_finds_is_refused_before_any_run() {
        let relative = "is a relative path, which each run resolves in its own working directory";
        for (command, script, shell) in [
            ("sh agent.sh", "agent.sh", "sh"),
            ("sh Cargo.toml {task}", "Cargo.toml", "sh"),
            (
                "bash -e agents/scripted.sh {task}",
                "agents/scripted.sh",
                "bash",
            ),
            ("/bin/sh -o errexit -- x.sh", "x.sh", "/bin/sh"),
        ] {
            assert_eq!(
                refused(command),
                format!("the agent's script `{script}` (run by `{shell}`) {relative}")
            );
        }
        assert_eq!(
            refused("KEY=1 dash /nonexistent/agent.sh {task}"),
            "the agent's script `/nonexistent/agent.sh` (run by `dash`) does not exist"
        );
        // No script, one that exists, one on the PATH (bash looks there), or one the
        // shell expands: not judged.
        let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/agents/scripted.sh");
        for fine in [
            "sh -c 'agent {task}'",
            "bash -ec true",
            "sh -s < /dev/null",
            "sh",
            &format!("bash {manifest} {{task}}"),
            "bash sh -c true",
            "sh ~someone/agent.sh",
            "sh {workdir}/agent.sh",
            "true agent.py",
        ] {
            assert!(checked(fine).is_ok(), "{fine}");
        }
    }

    /// A program or a shell's script under `~/`, which each run's `sh` expands with the
    /// run's own `HOME`, made empty: refused, but when mur-eval's own is passed on
    /// (`--pass-env HOME`), where it is judged as any absolute path.
    #[test]
    fn a_path_under_home_is_judged_with_the_home_the_agent_runs_with() {
        let path = OsString::from(PATH);
        let home = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(home.path().join("bin")).expect("bin");
        std::fs::write(home.path().join("bin/agent"), "exit 0\n").expect("agent");
        let passed = Some(home.path());
        for fine in [
            "~/bin/agent {task}",
            "K=1 sh ~/bin/agent {task}",
            // `$HOME` as typed in single quotes, which the run's `sh` expands as `~`.
            "$HOME/bin/agent {task}",
            "\"${HOME}/bin/agent\" {task}",
            "bash $HOME/bin/agent",
        ] {
            assert!(check_program(fine, &path, passed, &[]).is_ok(), "{fine}");
        }
        let refused = |command: &str, home| {
            check_program(command, &path, home, &[])
                .expect_err(command)
                .to_string()
        };
        // Where it was looked for, and a hint that fits a path under `~/`, not `$PWD/…`.
        for (command, named, file) in [
            (
                "~/bin/nope {task}",
                "the agent's program `~/bin/nope`",
                "bin/nope",
            ),
            (
                "bash ~/nope.sh",
                "the agent's script `~/nope.sh` (run by `bash`)",
                "nope.sh",
            ),
        ] {
            let error = check_program(command, &path, passed, &[]).expect_err(command);
            assert_eq!(
                error.message(),
                format!(
                    "{named} is `{}` with your `HOME` passed on (`--pass-env HOME`), which \
                     does not exist",
                    home.path().join(file).display()
                )
            );
            assert_eq!(error.hints(), ["name it by absolute path, where it is"]);
        }
        for (command, named, under) in [
            (
                "~/bin/agent {task}",
                "the agent's program `~/bin/agent`",
                "~",
            ),
            (
                "sh ~/bin/agent",
                "the agent's script `~/bin/agent` (run by `sh`)",
                "~",
            ),
            (
                "$HOME/bin/agent {task}",
                "the agent's program `$HOME/bin/agent`",
                "$HOME",
            ),
            (
                "K=1 ${HOME}/bin/agent",
                "the agent's program `${HOME}/bin/agent`",
                "${HOME}",
            ),
            (
                "sh \"$HOME/bin/agent\"",
                "the agent's script `$HOME/bin/agent` (run by `sh`)",
                "$HOME",
            ),
        ] {
            assert_eq!(
                refused(command, None),
                format!(
                    "{named} is under `{under}`, which each run's `sh` expands to the run's \
                     own `HOME`, an empty directory"
                )
            );
        }
        let error = check_program("$HOME/bin/nope", &path, passed, &[]).expect_err("nope");
        assert_eq!(
            error.message(),
            format!(
                "the agent's program `$HOME/bin/nope` is `{}` with your `HOME` passed on \
                 (`--pass-env HOME`), which does not exist",
                home.path().join("bin/nope").display()
            )
        );
    }

    /// A command `sh` cannot parse: each run's `sh -c` would exit 2 at once, which no
    /// early stop reads as "never started". Refused with what `sh` says of it, on one line.
    #[test]
    fn a_command_sh_cannot_parse_is_refused_with_what_sh_said() {
        for command in [
            "claude ((",
            "if true; then\nagent {task}",
            "agent 'unbalanced",
        ] {
            let error = checked(command).expect_err(command);
            // The line `sh` names, without its name before it (`sh: 1: …`).
            let said = error
                .message()
                .strip_prefix(
                    "the agent command is not valid shell, so no run would run an agent: \
                     `sh -n` said: line ",
                )
                .unwrap_or_else(|| panic!("{command:?}: {}", error.message()));
            assert!(!said.contains("sh: "), "{said}");
            assert_eq!(error.exit_code(), 1);
        }
        // Placeholders are words to `sh`, in quotes or not.
        for fine in ["true {task} \"{prompt}\" '{prompt_file}'", "{ true; }"] {
            assert!(checked(fine).is_ok(), "{fine}");
        }
    }

    /// What `sh` said is told after a colon, never in backticks, which bash's own message
    /// holds (`` `(' ``), and escaped: a command with a control character in it is echoed
    /// back by the shell. Lines are joined on one; no line at all gives the exit code.
    #[test]
    fn what_sh_said_is_told_unquoted_and_escaped() {
        let bash = "bash: -c: line 1: syntax error near unexpected token `('\n\
                    bash: -c: line 1: `claude (( \x1b[2J'\n";
        assert_eq!(
            sh_said(bash, Some(2)),
            "`sh -n` said: line 1: syntax error near unexpected token `('; \
             line 1: `claude (( \\x1b[2J'"
        );
        // dash, and a shell by its path; a line with no name before it is kept whole.
        assert_eq!(
            sh_said("sh: 1: Syntax error: \"(\" unexpected\n", Some(2)),
            "`sh -n` said: line 1: Syntax error: \"(\" unexpected"
        );
        assert_eq!(
            sh_said(
                "/bin/sh: 2: Syntax error: end of file unexpected\n",
                Some(2)
            ),
            "`sh -n` said: line 2: Syntax error: end of file unexpected"
        );
        assert_eq!(
            sh_said("unterminated quoted string\n", Some(2)),
            "`sh -n` said: unterminated quoted string"
        );
        assert_eq!(sh_said(" \n", Some(2)), "`sh -n` exited 2");
    }

    #[test]
    fn a_misspelt_placeholder_is_refused_naming_the_one_meant() {
        let path = OsString::from(PATH);
        let refused = |command: &str| {
            let error = checked(command).expect_err(command);
            (error.to_string(), error.hints().first().cloned())
        };
        let all = "{task}, {prompt}, {prompt_file}, {workdir}, {mcp_config}, {profile}";
        assert_eq!(
            refused("sh /x.sh {taks}"),
            (
                "the agent command has `{taks}`, which is no placeholder: every run's agent \
                 would get it as typed"
                    .to_owned(),
                Some(format!(
                    "did you mean `{{task}}`? The placeholders are {all}"
                ))
            )
        );
        // One slip from a placeholder is refused in single quotes too.
        assert_eq!(
            refused(r#"claude -p "$(cat '{prompt_fle}')""#).1,
            Some(format!(
                "did you mean `{{prompt_file}}`? The placeholders are {all}"
            ))
        );
        assert_eq!(
            refused("agent ${task}"),
            (
                "the agent command has `${task}`, a shell expansion of the placeholder \
                 `{task}`, which would be replaced after the `$`"
                    .to_owned(),
                Some(
                    "write `{task}` for the placeholder (its value shell-quoted), or `$task` \
                     for a shell variable"
                        .to_owned()
                )
            )
        );
        // A study's own, where a study judges the command; its slips named too.
        let study = |command: &str| check_program(command, &path, None, &STUDY_PLACEHOLDERS);
        assert!(study("true {condition} {surface} {task}").is_ok());
        assert_eq!(
            study("true {conditon}")
                .expect_err("a slip")
                .hints()
                .first()
                .cloned(),
            Some(format!(
                "did you mean `{{condition}}`? The placeholders are {all}, {{condition}}, {{surface}}"
            ))
        );
        // The shell's, a JSON object, a brace expansion, an awk or jq program, `find`'s.
        for fine in [
            "true --home ${HOME} {task} {prompt} {prompt_file} {workdir} {profile}",
            r#"true --json '{"a":1}' {task}"#,
            "true {a,b} {1..3}",
            "true '{print}' {prompt_file}",
            "true '{name}' x.json",
            r"true \{taks}",
            "find . -exec true {} ;",
        ] {
            assert!(checked(fine).is_ok(), "{fine}");
        }
    }

    #[test]
    fn placeholders_are_replaced_shell_quoted_and_one_in_a_value_is_not_replaced_again() {
        let dir = tempfile::tempdir().expect("tempdir");
        let command =
            "agent --task {task} --file {prompt_file} --config {mcp_config} {profile} {prompt}";
        let mut in_a_value = invocation("printf '<%s>' {prompt}", dir.path());
        in_a_value.prompt = "Save it under {workdir} and {prompt_file} now";
        in_a_value.workdir = Path::new("/tmp/s P");
        let cases = [
            (
                "every placeholder",
                invocation(command, dir.path()),
                "agent --task counter --file '/tmp/my prompt.md' --config /tmp/.mcp.json mcp 'Say \"hi\"; then $(stop)'",
            ),
            (
                "a placeholder in the prompt",
                in_a_value,
                "printf '<%s>' 'Save it under {workdir} and {prompt_file} now'",
            ),
        ];
        for (case, run, substituted) in cases {
            assert_eq!(substitute(&run).expect(case), substituted, "{case}");
        }
    }

    #[test]
    fn the_prompt_reaches_the_agent_as_one_word_and_output_is_kept() {
        let (ended, out, err) = ran(
            "printf '%s|' {prompt} {task}; echo oops >&2; exit 3",
            |_| {},
        );
        assert_eq!((ended.exit, ended.timed_out), (Some(3), false));
        assert_eq!(out, "Say \"hi\"; then $(stop)|counter|");
        assert_eq!(err, "oops\n");
    }

    #[test]
    fn an_agent_past_its_limit_is_killed_with_its_children() {
        let (ended, out, _) = ran("sleep 30 & sleep 30; echo never", |run| {
            run.limit = Duration::from_millis(300);
        });
        assert!(ended.timed_out, "{ended:?}");
        assert_eq!(ended.signal, Some(9));
        assert_eq!(out, "");
    }

    #[test]
    fn a_limit_past_what_the_clock_counts_is_no_limit() {
        let (ended, ..) = ran("echo done", |run| run.limit = Duration::from_secs(u64::MAX));
        assert_eq!((ended.exit, ended.timed_out), (Some(0), false));
    }

    #[test]
    fn the_cli_profile_refuses_an_mcp_configuration() {
        let error =
            check_command("agent --config {mcp_config}", Profile::Cli).expect_err("refused");
        assert!(
            error.message().contains("no MCP configuration"),
            "{}",
            error.message()
        );
        assert!(matches!(
            check_command("agent --config {mcp_config}", Profile::Mcp),
            Ok(None)
        ));
        let warning = check_command("/opt/mur devtools state", Profile::Mcp).expect("allowed");
        assert!(warning.is_some_and(|w| w.contains("will count as cli calls")));
    }
}
