//! The command line as clap types, and the two shapes read without clap (a plain verb call,
//! a plain tool call).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use mur_core::settings::{ByteSize, PortRange};

/// Default bound on one whole call (discovery excluded), in milliseconds.
///
/// Ten seconds: a loopback devtools call normally answers in milliseconds, but
/// a first `tree` of a big window or a `screenshot` on a loaded machine can take
/// seconds; anything longer is a hung server, and a script deserves exit 2.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// Default cap on one HTTP response body; see [`ByteSize::DEFAULT_MAX_RESPONSE`].
pub const DEFAULT_MAX_RESPONSE: ByteSize = ByteSize::DEFAULT_MAX_RESPONSE;

#[derive(Debug, Parser)]
#[command(
    name = "mur",
    version,
    about = "Drive running apps through their devtools MCP servers"
)]
// `-V` is `mur`'s alone, as `cargo -V` and `git --version` are theirs: `mur devtools
// version` is the running app's, and `-V` listed under every command read as that.
#[command(disable_help_subcommand = true)]
// Typed alone, `mur` is refused in one line as `mur devtools` is, not with its whole help
// (~40 lines) on stderr; `mur --help` prints it on stdout.
#[command(arg_required_else_help = false)]
#[command(after_help = examples(&[
    "mur devtools session list --pretty",
    "mur devtools tree --selector '#btn-inc'",
    "mur devtools guide | less",
    "mur completions bash > ~/.local/share/bash-completion/completions/mur",
]))]
pub struct Cli {
    /// Host options are global: `mur -v devtools tree` and `mur devtools -v
    /// tree` are the same command.
    #[command(flatten)]
    pub host: HostArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Talk to the running app's devtools session
    Devtools(Devtools),
    /// Print a shell completion script (installed verbs included)
    #[command(defer(at_top))]
    #[command(after_help = examples(&[
        "mur completions bash > ~/.local/share/bash-completion/completions/mur",
        "mur completions zsh > ~/.zfunc/_mur",
        "mur completions fish > ~/.config/fish/completions/mur.fish",
    ]))]
    Completions {
        /// The shell to complete for
        shell: clap_complete::Shell,
    },
    /// Print the help of a command: `mur help devtools click`
    #[command(defer(at_top))]
    #[command(after_help = examples(&["mur help devtools", "mur help devtools click"]))]
    Help {
        /// The command, as it would be typed after `mur`
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "COMMAND"
        )]
        words: Vec<String>,
    },
}

/// An "Examples:" block for `--help`, one command per line.
const fn examples(lines: &'static [&'static str]) -> Examples {
    Examples(lines)
}

/// Example commands, rendered as an "Examples:" help section.
#[derive(Clone, Copy)]
pub struct Examples(&'static [&'static str]);

impl From<Examples> for String {
    fn from(examples: Examples) -> Self {
        let mut text = String::from("Examples:\n");
        for line in examples.0 {
            text.push_str("  ");
            text.push_str(line);
            text.push('\n');
        }
        text.trim_end().to_owned()
    }
}

impl From<Examples> for clap::builder::StyledStr {
    fn from(examples: Examples) -> Self {
        String::from(examples).into()
    }
}

/// `--answer KEY=VALUE` as its key and value.
pub fn answer(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_owned(), value.to_owned())),
        _ => Err(format!("`{text}` is not KEY=VALUE")),
    }
}

/// `--endpoint URL`: a URL mur's HTTP reads ([`mur_http::read_url`]), else refused where
/// it is parsed, as a usage error: `http://127.0.0.1:1/ x` passed the loopback check,
/// whose parser takes it, and was refused by the HTTP layer after discovery, as a request
/// that failed (exit 2). Whether it is on loopback is discovery's to say.
pub fn endpoint(text: &str) -> Result<String, String> {
    match mur_http::read_url(text) {
        Ok(_) => Ok(text.to_owned()),
        Err(why) => Err(format!("not a URL ({why}); nothing was sent")),
    }
}

/// `--protocol REVISION`: one of the MCP revisions mur speaks ([`mur_client::REVISIONS`]);
/// any other date was sent as it was and the server's own revision taken instead, so a
/// typo (`2025-11-52`) went unnoticed. The revisions are listed, none picked as meant: the
/// nearest spelling of a date (`2020-01-01`: `2024-11-05`) is no nearer a revision.
pub fn revision(text: &str) -> Result<String, String> {
    if mur_client::REVISIONS.contains(&text) {
        return Ok(text.to_owned());
    }
    let known = mur_client::REVISIONS.join(", ");
    Err(format!("no MCP revision mur speaks ({known})"))
}

/// The usage hint of `command`, built, as clap renders its usage with nothing typed:
/// ``usage: mur devtools call [OPTIONS] [NAME] (`--help` shows more)``.
pub fn usage_hint(command: &mut clap::Command) -> String {
    let usage = command.render_usage().to_string();
    let usage = usage.strip_prefix("Usage: ").unwrap_or(&usage).trim();
    // Its first line, as clap's own errors give it: a command that takes arguments and
    // has subcommands too (`bridge`, `bridge stop`) has a second line, `mur devtools
    // bridge <COMMAND>`, which a one-line hint printed escaped (`\x0a`).
    let usage = usage.lines().next().unwrap_or_default();
    format!("usage: {usage} (`--help` shows more)")
}

/// `NO_COLOR` set to anything but the empty string turns every color off.
pub fn color_disabled() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// The command tree, with color off when `NO_COLOR` asks for it.
pub fn command() -> clap::Command {
    command_listing(&[])
}

/// [`command`] with `(name, summary)` of each installed plugin verb listed
/// under `mur devtools --help`.
pub fn command_listing(plugin_verbs: &[(String, String, &str)]) -> clap::Command {
    use clap::CommandFactory as _;
    // Each in its place (`mut_subcommand` moves the one it changes last): `mur` typed alone
    // names its commands in clap's order, as its help lists them.
    let cmd = Cli::command().mut_subcommands(|command| match command.get_name() {
        "devtools" => command.after_help(devtools_after_help(plugin_verbs)),
        _ => command,
    });
    if color_disabled() {
        cmd.color(clap::ColorChoice::Never)
    } else {
        cmd
    }
}

/// The end of `mur devtools --help`: the plugin verbs, where host options go,
/// and examples.
fn devtools_after_help(plugin_verbs: &[(String, String, &str)]) -> String {
    let mut text = if plugin_verbs.is_empty() {
        String::from("No verbs are installed (`mur devtools verbs add FILE…` installs some).\n")
    } else {
        let width = plugin_verbs
            .iter()
            .map(|(n, ..)| n.len())
            .max()
            .unwrap_or(0);
        let mut list = String::from("Installed verbs (`mur devtools <verb> --help` for each):\n");
        for (name, summary, kind) in plugin_verbs {
            // A verb's words, as every text of others': one line, nothing a terminal
            // obeys (clap prints this as it is, on a terminal with its escapes too), and
            // nothing it shows as nothing (a zero-width space, a tag), as the catalog
            // writes it: every invisible character, which the unprintable ones are.
            let summary = mur_core::text::escaped(summary, mur_core::text::invisible);
            list.push_str(&format!("  {name:<width$}  {summary} [{kind}]\n"));
        }
        list
    };
    text.push_str(
        "\nA tool of the session that no installed verb covers is a verb too, named in kebab case \
         (`waitFor` is `wait-for`), or reached with `mur devtools call NAME` where a command or a \
         verb has that name: `mur devtools catalog` lists them all.\n",
    );
    text.push_str(&format!(
        "\nHost options ({}) \
         go before the verb. After a plugin verb's name one is taken only where the verb declares \
         no option of that name, never as the value of the verb's own option, and never after `--`.\n\n",
        host_option_names()
    ));
    text + &String::from(examples(&[
        "mur devtools session list --pretty",
        "mur devtools click '#btn-inc'",
        "mur devtools --project ./App.csproj state --selector '#count'",
        "mur devtools guide",
    ]))
}

#[derive(Debug, Args)]
#[command(allow_external_subcommands = true)]
// Typed alone, `mur devtools` is refused in one line as a group without its command is
// (`mur devtools verbs`), not with its whole help on stderr: ~60 lines for one word missing.
#[command(arg_required_else_help = false)]
pub struct Devtools {
    #[command(subcommand)]
    pub verb: Verb,
}

/// Options the host owns; accepted anywhere before the verb (also before
/// `devtools`) and, after a plugin verb's name, where the verb declares no
/// option of that name (host/src/options.rs).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Host options")]
pub struct HostArgs {
    /// Use this MCP endpoint as-is, without discovery
    // An empty one (`--endpoint=`) is missing, as an empty `--project=` is (said so of
    // any empty value a parser refuses): it was refused only later, as "`--endpoint ` is
    // not a URL".
    #[arg(long, global = true, value_name = "URL", value_parser = endpoint)]
    pub endpoint: Option<String>,
    /// Pick the session of this project (its project file)
    #[arg(long, global = true, value_name = "PATH")]
    pub project: Option<PathBuf>,
    /// When no lockfile names a live session, scan loopback ports (the OS's ephemeral range)
    #[arg(long, global = true)]
    pub auto: bool,
    /// Like --auto, scanning every port 1024-65535
    #[arg(long, global = true)]
    pub auto_full: bool,
    /// Like --auto, scanning this port range
    // Any word is its value, refused as no range, as `--max-response`'s: `-5` (b7befa7)
    // and `-inf` or `-5x` alike, where clap's negative-number rule took `-5` and not
    // `-inf`, which it read as `-i`.
    #[arg(long, global = true, value_name = "LO-HI", allow_hyphen_values = true)]
    pub auto_range: Option<PortRange>,
    /// Bound on the whole call, in milliseconds
    // Any word is its value, `-5s` as `-5`, refused as no number of milliseconds: as a
    // negative number alone, `-5s` was "unexpected argument `-5`" before a verb and "a
    // value is required" after it ([`HOST_OPTIONS`] says the same of it).
    #[arg(long, global = true, value_name = "MS", default_value_t = DEFAULT_TIMEOUT_MS,
          value_parser = mur_core::settings::timeout_ms, allow_hyphen_values = true)]
    pub timeout: u64,
    /// Largest response body mur reads, in bytes (`K`, `M`, `G`: KiB, MiB, GiB)
    // Any word is its value, refused as no byte count, as `--timeout`'s: `-5K`, taken
    // for an option, was "unexpected argument `-5`" before a verb and "a value is
    // required" after it ([`HOST_OPTIONS`] says the same of it).
    #[arg(long, global = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_RESPONSE,
          allow_hyphen_values = true)]
    pub max_response: ByteSize,
    /// Indent JSON output; print tables for people
    #[arg(long, global = true)]
    pub pretty: bool,
    /// Print what mur does (endpoint, retries) and the server's log messages on stderr
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Show no progress, task status or notes on stderr
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Answer the server's question: KEY is a field of the schema it asks for (repeatable)
    #[arg(long, global = true, value_name = "KEY=VALUE", value_parser = answer)]
    pub answer: Vec<(String, String)>,
    /// Speak only this MCP revision: 2026-07-28, or the initialize session form of 2025-11-25,
    /// 2025-06-18, 2025-03-26 or 2024-11-05
    #[arg(long, global = true, value_name = "REVISION", value_parser = revision)]
    pub protocol: Option<String>,
    /// Read the session's tool list afresh, not from the cache (a derived verb's call, completion, hints)
    #[arg(long, global = true)]
    pub refresh: bool,
    /// Whether `--timeout` was typed for the host (else a verb's own sets the bound).
    #[arg(skip)]
    pub timeout_given: bool,
    /// Whether `--max-response` was typed: typed as its default, it is told from none
    /// by this alone, and typed again after the verb's name it is refused all the same.
    #[arg(skip)]
    pub max_response_given: bool,
    /// The command line as [`mur_core::Settings::command_line`] names it again, read
    /// from argv where it is parsed.
    #[arg(skip)]
    pub command_line: Vec<String>,
}

impl HostArgs {
    /// No host option typed: what clap gives then (its defaults).
    pub fn unset() -> Self {
        Self {
            timeout: DEFAULT_TIMEOUT_MS,
            max_response: DEFAULT_MAX_RESPONSE,
            ..Self::default()
        }
    }

    /// Records which of the host options that have a default were typed before the
    /// verb (`matches`, clap's parse): clap gives their value either way. Global, so
    /// the top level knows whether any level was given one.
    pub fn note_typed(&mut self, matches: &clap::ArgMatches) {
        let typed = |id| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
        self.timeout_given = typed("timeout");
        self.max_response_given = typed("max_response");
    }
}

/// One host option as clap's [`HostArgs`] declares it: what taking it after a verb's
/// name needs to know. [`HOST_OPTIONS`] lists them all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostOption {
    /// `timeout` for `--timeout`.
    pub long: &'static str,
    /// `v` for `-v`.
    pub short: Option<char>,
    /// The name of its value (`MS`); `None` for a flag.
    pub value: Option<&'static str>,
    /// Whether any word is its value, one starting with `-` too (clap's
    /// `allow_hyphen_values`): `--max-response -5K` is refused as no byte count, not
    /// taken for an option. A lone `-` is every option's value (a path of that name).
    pub any_value: bool,
    /// Whether it may be typed again (clap's `Append`: `--answer`); clap refuses any
    /// other one twice, and so does `options::extract_host_options` after a verb's name.
    pub repeatable: bool,
}

/// The host options, in `HostArgs`'s order: a table, not read off clap's tree, because a
/// verb's call builds no clap tree (`cli::plain_verb_call`) and these are looked up for
/// each of its words (`options::extract_host_options`). `options::tests::the_table_is_clap_s`
/// holds it to `HostArgs`, and `options::tests::every_host_option_is_taken_after_a_verb_as_before_it`
/// holds `options::set` to clap's parse: a host option added to `HostArgs` alone fails both.
pub const HOST_OPTIONS: [HostOption; 13] = {
    const fn valued(long: &'static str, value: &'static str, any_value: bool) -> HostOption {
        HostOption {
            long,
            short: None,
            value: Some(value),
            any_value,
            repeatable: false,
        }
    }
    const fn flag(long: &'static str, short: Option<char>) -> HostOption {
        HostOption {
            long,
            short,
            value: None,
            any_value: false,
            repeatable: false,
        }
    }
    [
        valued("endpoint", "URL", false),
        valued("project", "PATH", false),
        flag("auto", None),
        flag("auto-full", None),
        valued("auto-range", "LO-HI", true),
        valued("timeout", "MS", true),
        valued("max-response", "BYTES", true),
        flag("pretty", None),
        flag("verbose", Some('v')),
        flag("quiet", Some('q')),
        HostOption {
            repeatable: true,
            ..valued("answer", "KEY=VALUE", false)
        },
        valued("protocol", "REVISION", false),
        flag("refresh", None),
    ]
};

impl HostOption {
    /// The host option named `--long`.
    pub fn named(word: &str) -> Option<&'static HostOption> {
        let long = word.strip_prefix("--")?;
        HOST_OPTIONS.iter().find(|option| option.long == long)
    }

    /// Its id in clap's tree (`auto_full` for `--auto-full`).
    pub fn id(&self) -> String {
        self.long.replace('-', "_")
    }

    /// As clap names it in an error: `--timeout <MS>`, `--pretty`.
    pub fn usage(&self) -> String {
        match self.value {
            Some(value) => format!("--{} <{value}>", self.long),
            None => format!("--{}", self.long),
        }
    }
}

/// The host options in one line, as `mur devtools --help` names them: `-v` by its
/// short name, and `--auto*` for `--auto` and the options named after it
/// (`--auto-full`, `--auto-range`).
pub fn host_option_names() -> String {
    let mut names: Vec<String> = Vec::new();
    for option in &HOST_OPTIONS {
        let widened = option
            .long
            .split_once('-')
            .and_then(|(stem, _)| HostOption::named(&format!("--{stem}")));
        if widened.is_some() {
            continue;
        }
        let widens = HOST_OPTIONS
            .iter()
            .any(|other| other.long.starts_with(&format!("{}-", option.long)));
        names.push(match (option.short, widens) {
            (Some(short), _) => format!("-{short}"),
            (None, true) => format!("--{}*", option.long),
            (None, false) => format!("--{}", option.long),
        });
    }
    names.join(", ")
}

/// A subcommand whose arguments clap builds only when it is the one typed
/// (`Command::defer`). clap builds the command tree on every run before it
/// parses, and the host commands' arguments and help texts were most of it,
/// though a verb call reads none of them: ~0.4 ms of every call (docs/performance.md,
/// "clap builds only the command typed"). The host options its command reads are its
/// row of [`COMMAND_READS`]; its one `defer` is this type's, so it cannot be a second
/// `#[command(defer(…))]`.
#[derive(Debug, Clone)]
pub struct Lazy<T>(pub T);

impl<T> std::ops::Deref for Lazy<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: clap::FromArgMatches> clap::FromArgMatches for Lazy<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Lazy)
    }
    fn from_arg_matches_mut(matches: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Lazy)
    }
    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
}

impl<T: Args> Args for Lazy<T> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| in_devtools(under_own_texts(cmd, T::augment_args)))
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| in_devtools(under_own_texts(cmd, T::augment_args_for_update)))
    }
    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
}

impl<T: Subcommand> Subcommand for Lazy<T> {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| in_devtools(under_own_texts(cmd, T::augment_subcommands)))
    }
    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| in_devtools(under_own_texts(cmd, T::augment_subcommands_for_update)))
    }
    fn has_subcommand(name: &str) -> bool {
        T::has_subcommand(name)
    }
}

/// `add` (a type's arguments or subcommands) applied to `cmd` under the texts
/// the variant gave it. Built eagerly, clap sets the variant's `about` and
/// `long_about` after the type's own (its doc comment), so the variant's win;
/// deferred, the type's come last and would replace them.
fn under_own_texts(cmd: clap::Command, add: fn(clap::Command) -> clap::Command) -> clap::Command {
    let about = cmd.get_about().cloned();
    let long_about = cmd.get_long_about().cloned();
    let cmd = add(cmd);
    let cmd = match about {
        Some(text) => cmd.about(text),
        None => cmd.about(None::<&str>),
    };
    match long_about {
        Some(text) => cmd.long_about(text),
        None => cmd.long_about(None::<&str>),
    }
}

/// Which host options each of mur's commands that is no call reads, by the words that
/// name it after `mur`: the one table that both its help ([`reading`]) and the refusal of
/// any other ([`Cli::unread_option`]) follow. A help lists what works, and an option that
/// would do nothing is refused as an unknown one is (`bridge --timeout 5` bounded nothing,
/// `session clean --project P` cleaned every project's, and neither said so). A command
/// it does not name (a verb, derived or installed, and `call`) reads every one; a group
/// (`session`, `verbs`) lists those any of its commands reads. `-v` and `-q` (how much is
/// said, never what is done) go with every command ([`SAID`]).
const COMMAND_READS: &[(&str, &[&[&str]])] = {
    // How a session is found and spoken to, by each command that speaks to one.
    const FINDS: &[&str] = &[
        "endpoint",
        "project",
        "auto",
        "auto_full",
        "auto_range",
        "max_response",
        "protocol",
    ];
    // `--refresh`: a command that reads a tool list reads it afresh, as the option asks.
    const LISTS: &[&str] = &["refresh"];
    &[
        ("completions", &[]),
        ("help", &[]),
        ("devtools guide", &[]),
        ("devtools catalog", &[FINDS, LISTS, &["timeout", "pretty"]]),
        ("devtools parity", &[FINDS, LISTS, &["timeout", "pretty"]]),
        // The lockfile directory, not one endpoint: every session, or `--project`'s.
        (
            "devtools session list",
            &[&[
                "project",
                "auto",
                "auto_full",
                "auto_range",
                "timeout",
                "pretty",
            ]],
        ),
        // Every project's ended sessions: no one's in particular.
        ("devtools session clean", &[&["timeout"]]),
        (
            "devtools verbs list",
            &[FINDS, LISTS, &["timeout", "pretty"]],
        ),
        // `verbs add`, `info` and `new`: the session they speak of is looked for within
        // their own 3 s, not `--timeout`.
        ("devtools verbs add", &[FINDS, LISTS]),
        ("devtools verbs remove", &[]),
        ("devtools verbs info", &[FINDS, LISTS, &["pretty"]]),
        ("devtools verbs prune", &[]),
        ("devtools verbs new", &[FINDS, LISTS]),
        // `--timeout`: how long `--html -` waits for the browser that renders the page.
        ("devtools usage report", &[&["timeout", "pretty"]]),
        ("devtools usage on", &[]),
        ("devtools usage off", &[]),
        ("devtools usage path", &[]),
        // The project whose bridge it is.
        ("devtools bridge", &[&["project"]]),
        ("devtools bridge stop", &[&["project"]]),
        // All that finds and calls the session, but `--pretty` (it writes JSON-RPC
        // messages, one a line) and `--refresh` (it reads no tool list).
        ("devtools proxy", &[FINDS, &["timeout", "answer"]]),
    ]
};

/// The host options every command takes: how much mur says. Given to any command
/// (`mur -v devtools usage report`, an agent's `mur devtools -q …` for every command), they
/// change nothing it does, and one that has nothing more or less to say says the same.
const SAID: [&str; 2] = ["verbose", "quiet"];

/// Whether the command named by `path` ([`COMMAND_READS`]) reads the host option of clap
/// id `id`: a group reads what any of its commands does.
fn reads(path: &str, id: &str) -> bool {
    if SAID.contains(&id) {
        return true;
    }
    let mut named = COMMAND_READS
        .iter()
        .filter(|(command, _)| {
            command
                .strip_prefix(path)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        })
        .peekable();
    named.peek().is_none() || named.any(|(_, groups)| groups.iter().any(|ids| ids.contains(&id)))
}

/// `cmd`, named by `path`, with the host options it does not read ([`reads`]) left out
/// of its help and completions, and those it reads in them. Run as the command's
/// `defer`, once clap has given it its parent's global options (hidden as its parent's
/// were).
fn reading(cmd: clap::Command, path: &str) -> clap::Command {
    // Only those whose showing changes: `mut_arg` moves the option it changes last, and
    // completion offers them in that order.
    let changed: Vec<(clap::Id, bool)> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set() && a.get_help_heading() == Some("Host options"))
        .map(|a| {
            (
                a.get_id().clone(),
                reads(path, a.get_id().as_str()),
                a.is_hide_set(),
            )
        })
        .filter(|(_, read, hidden)| read == hidden)
        .map(|(id, read, _)| (id, read))
        .collect();
    let cmd = changed
        .into_iter()
        .fold(cmd, |cmd, (id, read)| cmd.mut_arg(id, |a| a.hide(!read)));
    // What `--timeout` bounds for it, where that is not the call's 10 s.
    let timeout = TIMEOUT_READ_AS
        .iter()
        .find(|(command, ..)| *command == path);
    let has_timeout = cmd.get_arguments().any(|a| a.get_id() == "timeout");
    match timeout {
        Some((_, help, default_holds)) if has_timeout => cmd.mut_arg("timeout", |a| {
            a.help(*help).hide_default_value(!default_holds)
        }),
        _ => cmd,
    }
}

/// The commands of [`COMMAND_READS`] that read `--timeout` as no bound on a call: what it
/// bounds for each, said in its help instead of "Bound on the whole call", and whether
/// its default (`DEFAULT_TIMEOUT_MS`) holds there. `proxy --help` said `[default: 10000]`
/// of a proxy that bounds no request unless `--timeout` is given (review 407 #4).
const TIMEOUT_READ_AS: &[(&str, &str, bool)] = &[
    (
        "devtools proxy",
        "Bound on each request forwarded, in milliseconds (none of mur's own unless given)",
        false,
    ),
    (
        "devtools usage report",
        "How long `--html FILE` waits for a FIFO's reader that takes nothing, in milliseconds",
        true,
    ),
];

/// `cmd` under `parent`: the `defer` of each command named in [`COMMAND_READS`].
fn under(parent: &str, cmd: clap::Command) -> clap::Command {
    let path = format!("{parent} {}", cmd.get_name());
    reading(cmd, path.trim_start())
}

/// The `defer` of the commands under one parent, a `fn` each ([`under`] that parent), as
/// clap's `defer` takes them.
macro_rules! under_parents {
    ($($(#[$doc:meta])* $name:ident: $parent:literal;)*) => {$(
        $(#[$doc])*
        fn $name(cmd: clap::Command) -> clap::Command {
            under($parent, cmd)
        }
    )*};
}

under_parents! {
    /// `completions`, `help`.
    at_top: "";
    /// `guide`, `catalog`, and the [`Lazy`] commands (`session`, `bridge`…).
    in_devtools: "devtools";
    in_session: "devtools session";
    in_verbs: "devtools verbs";
    in_usage: "devtools usage";
    in_bridge: "devtools bridge";
}

impl Cli {
    /// The first host option typed (before the command or after it: `matches`, clap's
    /// parse) that the command does not read ([`COMMAND_READS`]), as a refusal says it.
    pub fn unread_option(&self, matches: &clap::ArgMatches) -> Option<String> {
        let mut words = Vec::new();
        let mut at = matches;
        while let Some((name, under)) = at.subcommand() {
            words.push(name);
            at = under;
        }
        let path = words.join(" ");
        let typed = |option: &&HostOption| {
            let id = option.id();
            !reads(&path, &id)
                && matches.value_source(&id) == Some(clap::parser::ValueSource::CommandLine)
        };
        let unread = HOST_OPTIONS.iter().find(typed)?;
        let read: Vec<String> = HOST_OPTIONS
            .iter()
            .filter(|option| reads(&path, &option.id()))
            .map(|option| match option.short {
                Some(short) => format!("`-{short}`"),
                None => format!("`--{}`", option.long),
            })
            .collect();
        let read = match read.split_last() {
            Some((last, [])) => format!("only {last}"),
            Some((last, rest)) => format!("only {} and {last}", rest.join(", ")),
            None => "none".to_owned(),
        };
        let command = path.strip_prefix("devtools ").unwrap_or(&path);
        Some(format!(
            "`--{}` does nothing for `{command}`, which reads {read} of the host options",
            unread.long
        ))
    }
}

/// Every word after `mur devtools` that clap does not hand to an installed verb: the
/// host's own commands, and `help` ([`host_verbs`]). `tests::the_fast_path_knows_every_host_command`
/// holds it to the tree.
const HOST_COMMANDS: &[&str] = &[
    "session", "call", "verbs", "guide", "catalog", "parity", "usage", "bridge", "proxy", "help",
];

/// What clap makes of the two shapes of nearly every agent's call, made without clap:
/// `mur devtools <verb> [words…]` and `mur devtools call <tool> [--args JSON]`, with
/// nothing but `devtools` before the verb. For them clap builds and matches the command
/// tree only to hand the words on unread (an external subcommand) or to fill two
/// strings: 0.1–0.3 ms of every call, most of it faulting in clap's code (docs/performance.md, "A
/// verb call without clap"). `None` for anything else, which clap parses, and whose
/// errors and help it renders.
pub fn plain_verb_call(argv: &[std::ffi::OsString]) -> Option<Cli> {
    let [_, devtools, name, rest @ ..] = argv else {
        return None;
    };
    let name = name.to_str()?;
    if devtools != "devtools" {
        return None;
    }
    let verb = if name == "call" {
        plain_tool_call(rest)?
    } else {
        plain_plugin_verb(name, rest)?
    };
    Some(Cli {
        host: HostArgs::unset(),
        command: Command::Devtools(Devtools { verb }),
    })
}

/// A word that is no host command: the verb's words as typed, for its own parser.
fn plain_plugin_verb(name: &str, rest: &[std::ffi::OsString]) -> Option<Verb> {
    if name.is_empty() || name.starts_with('-') || HOST_COMMANDS.contains(&name) {
        return None;
    }
    let mut words = Vec::with_capacity(rest.len() + 1);
    words.push(name.to_owned());
    for word in rest {
        words.push(word.to_str()?.to_owned());
    }
    Some(Verb::Plugin(words))
}

/// `call <tool>`, `call <tool> --args JSON` or `call <tool> --args=JSON`; any other
/// word (another option, a host option, `--method`, a value clap would take for a
/// flag) is clap's.
fn plain_tool_call(rest: &[std::ffi::OsString]) -> Option<Verb> {
    let (tool, args) = match rest {
        [tool] => (tool, None),
        [tool, flag, json] if flag == "--args" => {
            let json = json.to_str()?;
            if json.starts_with('-') {
                // clap reads `--args -1` as a missing value, and says so.
                return None;
            }
            (tool, Some(json))
        }
        [tool, flag] => (tool, Some(flag.to_str()?.strip_prefix("--args=")?)),
        _ => return None,
    };
    let tool = tool.to_str()?;
    if tool.is_empty() || tool.starts_with('-') {
        return None;
    }
    Some(Verb::Call(Lazy(CallArgs {
        name: Some(tool.to_owned()),
        method: None,
        args: args.map(str::to_owned),
        out: None,
        stray: Vec::new(),
    })))
}

#[derive(Debug, Subcommand)]
pub enum Verb {
    /// List or clean devtools sessions
    #[command(subcommand)]
    // Without its command, a group is refused in one line naming its commands (exit 1),
    // as it is with an option typed (`session --pretty`): not its whole help on stderr.
    #[command(arg_required_else_help = false)]
    #[command(after_help = examples(&["mur devtools session list --pretty", "mur devtools session clean --dry-run"]))]
    Session(Lazy<SessionCommand>),
    /// Call a tool, or send any JSON-RPC method
    #[command(long_about = CALL_ABOUT)]
    #[command(after_help = examples(&[
        "mur devtools call state --args '{\"selector\": \"#count\"}'",
        "mur devtools call tools/list",
        "mur devtools call ping",
        "mur devtools call screenshot --out app.png",
        "mur devtools call --method server/discover",
    ]))]
    Call(Lazy<CallArgs>),
    /// Install, list, inspect, prune, remove or create verbs
    #[command(subcommand)]
    #[command(arg_required_else_help = false)]
    #[command(after_help = examples(&[
        "mur devtools verbs list",
        "mur devtools verbs add plugins/target/wasm32-unknown-unknown/release/mur_verb_*.wasm",
        "mur devtools verbs new bump --dir ~/src",
    ]))]
    Verbs(Lazy<VerbsCommand>),
    /// Print the guide for agents: verbs, selectors, exit codes, errors, recipes
    #[command(defer(in_devtools))]
    #[command(after_help = examples(&["mur devtools guide", "mur devtools guide --all > mur-guide.md"]))]
    Guide {
        /// Print the whole guide: also mur's every option, `bridge`, derived verbs and the
        /// catalog's JSON
        #[arg(long)]
        all: bool,
    },
    /// List every verb: host, plugin and (with a session) derived, with options and hints
    #[command(defer(in_devtools))]
    #[command(after_help = examples(&[
        "mur devtools catalog",
        "mur devtools catalog --json | jq -r '.verbs[] | select(.annotations.readOnly) | .name'",
    ]))]
    Catalog {
        /// Print the catalog as JSON (schema `mur-catalog/1`: `mur devtools guide --all`)
        #[arg(long)]
        json: bool,
    },
    /// Show which verb reaches each tool of the session (exit 1 while one has no named verb)
    #[command(defer(in_devtools))]
    #[command(after_help = examples(&[
        "mur devtools parity --json     # exit 1 while some tool has no named verb",
    ]))]
    Parity {
        /// Print a JSON array of {tool, verb, verbs, kind} (`verbs`: each verb that reaches the tool)
        #[arg(long)]
        json: bool,
    },
    /// Report what agents called and which verbs lose; turn recording on or off
    #[command(subcommand)]
    #[command(arg_required_else_help = false)]
    #[command(after_help = examples(&[
        "mur devtools usage report",
        "mur devtools usage report --since 7d --json | jq '.losers[].command'",
        "mur devtools usage path",
    ]))]
    Usage(Lazy<UsageCommand>),
    /// Keep a stdio MCP server running as a session (`bridge stop` ends it)
    #[command(long_about = BRIDGE_ABOUT)]
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    #[command(after_help = examples(&[
        "mur devtools bridge --project ./Tools.csproj -- mur-sample --stdio --project ./Stdio.csproj",
        "mur devtools --project ./Tools.csproj call tools/list",
        "mur devtools bridge stop --project ./Tools.csproj",
    ]))]
    Bridge(Lazy<BridgeArgs>),
    /// Serve MCP on stdin and stdout, forwarding each request to the session
    #[command(long_about = PROXY_ABOUT)]
    #[command(after_help = examples(&[
        "mur devtools proxy <<< '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}'",
        "mur devtools --project ./App.csproj proxy < /dev/null",
    ]))]
    Proxy(Lazy<ProxyArgs>),
    /// A verb from an installed plugin
    #[command(external_subcommand)]
    Plugin(Vec<String>),
}

/// `mur devtools usage …`: the usage log (docs/usage.md).
#[derive(Debug, Clone, Subcommand)]
pub enum UsageCommand {
    /// Report calls, failures, latency per verb and tool; refused argv, unknown verbs, losers
    #[command(defer(in_usage))]
    #[command(after_help = examples(&[
        "mur devtools usage report",
        "mur devtools usage report --since 24h --agent claude",
        "mur devtools usage report --json | jq '.verbs[] | {name, calls, usageErrors}'",
        "mur devtools usage report --html usage.html",
    ]))]
    Report(ReportArgs),
    /// Record usage (the default); `--with-values` also records argument values
    #[command(defer(in_usage))]
    #[command(after_help = examples(&["mur devtools usage on", "mur devtools usage on --with-values"]))]
    On {
        /// Also record the words of each verb's argv, values included
        #[arg(long)]
        with_values: bool,
    },
    /// Stop recording usage
    #[command(defer(in_usage))]
    #[command(after_help = examples(&["mur devtools usage off"]))]
    Off,
    /// Print the usage log's path (and whether recording is on, on stderr)
    #[command(defer(in_usage))]
    #[command(after_help = examples(&["mur devtools usage path"]))]
    Path,
}

/// What `usage report` reads and how it prints.
#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    /// Only the records of the last DURATION (`30m`, `12h`, `7d`); a verb with no call in
    /// it is a loser, when the log goes back that far
    // Any word is its value, refused as no duration, as the host's `--timeout`: `-1d`,
    // taken for an option, was "unexpected argument `-1`" (so every value option here).
    // It conflicts with `--unused-for` (said here: `verbs prune` has no `--since`).
    #[arg(long, value_name = "DURATION", value_parser = mur_core::parse_window,
          conflicts_with = "unused_for", allow_hyphen_values = true)]
    pub since: Option<std::time::Duration>,
    #[command(flatten)]
    pub judging: JudgingArgs,
    /// Print the report as JSON (schema `mur-usage-report/1`)
    #[arg(long)]
    pub json: bool,
    /// Also write the report as one self-contained HTML page to FILE (`-`: print it instead)
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// What `usage report` and `verbs prune` judge verbs by: one declaration flattened into
/// both, so the same flags name the same losers (`judging::criteria`). Worded for the
/// report; `verbs prune` words some for a removal ([`prune_wording`]).
#[derive(Debug, Clone, Args)]
pub struct JudgingArgs {
    /// Without --since: a verb with no call in this long is a loser, when the log goes back
    /// that far (as `verbs prune --unused-for`)
    // Any word is its value, as every value option of the report (`-14d`, `-0.3`).
    #[arg(long, value_name = "DURATION", default_value = "30d", value_parser = mur_core::parse_window,
          allow_hyphen_values = true)]
    pub unused_for: std::time::Duration,
    /// End the window (--since, --unused-for) at TIME, not now: a UTC RFC 3339 time, or `last`,
    /// the newest record of the --server-log logs (else of every log read); records after it
    /// are left out
    #[arg(long, value_name = "TIME|last", value_parser = mur_usage::Until::parse)]
    pub until: Option<mur_usage::Until>,
    /// Only the records of this agent (`MUR_AGENT`, else the parent process's name)
    // An empty name is refused as an empty `--since` is: no record names an empty agent
    // (an empty `MUR_AGENT` is recorded as unset), so it would match none.
    #[arg(long, value_name = "NAME", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub agent: Option<String>,
    /// Also read these usage logs kept elsewhere: a session's (`--usage-log PATH` of a bridge
    /// or an app, a study's `runs/*/*/*/calls.jsonl`) or another home's mur log (a study's
    /// `runs/*/*/*/state/mur/usage/usage.jsonl`), each record counted on the side that wrote
    /// it; one or more paths, as a glob gives them; repeatable. The logs `--usage` keeps
    /// (`$XDG_STATE_HOME/mur/usage/sessions/*.jsonl`, an older mur's `<lockfile
    /// dir>/usage/*.jsonl`) are read without it
    // Several after one flag: a shell's glob gives a study's logs so (docs/usage.md).
    // The name says what it was first for; mur's records in such a log are counted as
    // mur's all the same (each record carries its side), and the help says so.
    #[arg(long = "server-log", value_name = "PATH", num_args = 1..)]
    pub server_logs: Vec<PathBuf>,
    /// Read only the --server-log logs: not your own mur log, nor the sessions' logs found
    /// beside it (a study's logs, without the calls you made yourself). They are the whole
    /// record: the window ends at their last record, not now (--until sets another end), one
    /// begun before their first record is judged from it, and every installed verb is
    /// judged, whenever it was added
    #[arg(long, requires = "server_logs")]
    pub only_named: bool,
    /// Judge only these installed verbs (comma-separated; repeatable): a study's, as its
    /// report's command names them, whose logs say nothing of a verb its runs never had
    /// installed; the others are named as not judged
    // A name no run had is no name the logs can judge: "never used in the logs named"
    // would be said of a verb added after the study (review 407 #3).
    #[arg(long, value_name = "VERB,…", value_delimiter = ',',
          value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub only_verbs: Vec<String>,
    /// A verb is a loser when more than this share (0 to 1) of its calls are usage errors
    #[arg(long, value_name = "R", default_value_t = 0.5, value_parser = rate, allow_hyphen_values = true)]
    pub max_usage_error_rate: f64,
    /// A verb is a loser when more than this share (0 to 1) of its calls failed in the verb
    /// itself (exit 6: a crash, its time or memory spent)
    #[arg(long, value_name = "R", default_value_t = 0.2, value_parser = rate, allow_hyphen_values = true)]
    pub max_plugin_failure_rate: f64,
}

impl JudgingArgs {
    /// The loser rule of the rates asked for.
    pub fn rule(&self) -> mur_usage::LoserRule {
        mur_usage::LoserRule {
            max_usage_error_rate: self.max_usage_error_rate,
            max_plugin_failure_rate: self.max_plugin_failure_rate,
            ..mur_usage::LoserRule::default()
        }
    }
}

/// A share between 0 and 1.
pub fn rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!(
            "`{text}` is not a share between 0 and 1 (e.g. 0.5)"
        )),
    }
}

/// `mur devtools bridge …`: start a bridge, or `stop` one.
#[derive(Debug, Args)]
pub struct BridgeArgs {
    #[command(subcommand)]
    pub stop: Option<BridgeCommand>,
    /// Stop after this long without a request (`30s`, `10m`, `1h`, or `never`)
    // Any word is its value (`-5m` refused as no duration), as `usage report --since`'s.
    #[arg(long, value_name = "DURATION", default_value = mur_bridge::DEFAULT_IDLE, value_parser = mur_bridge::parse_idle,
          allow_hyphen_values = true)]
    pub idle: mur_bridge::Idle,
    /// Run the bridge in this terminal instead of in the background
    #[arg(long)]
    pub foreground: bool,
    /// Record every tool call served (mur's, and an MCP client's through `mur devtools proxy`)
    /// beside mur's own usage log (`$XDG_STATE_HOME/mur/usage/sessions/<project hash>.jsonl`)
    #[arg(long)]
    pub usage: bool,
    /// Record every tool call served to this file instead
    #[arg(long, value_name = "PATH", conflicts_with = "usage")]
    pub usage_log: Option<std::path::PathBuf>,
    /// Largest message the bridge reads from the server, in bytes (`K`, `M`, `G`: KiB, MiB,
    /// GiB); a larger one fails the calls in flight and restarts the server. A call needs a
    /// `--max-response` as large to read such an answer
    #[arg(long, value_name = "BYTES", default_value_t = ByteSize(mur_bridge::MAX_MESSAGE_BYTES),
          allow_hyphen_values = true)]
    pub max_message: ByteSize,
    /// The stdio MCP server to run: its command and arguments, after `--`
    #[arg(last = true, required = true, value_name = "SERVER")]
    pub command: Vec<std::ffi::OsString>,
}

/// `mur devtools proxy`: what it records of the calls it forwards.
#[derive(Debug, Args)]
pub struct ProxyArgs {
    /// Record every tool call forwarded (an MCP client's, on surface `mcp`) beside mur's own
    /// usage log (`$XDG_STATE_HOME/mur/usage/sessions/mur-proxy.jsonl`), for a server that
    /// records none itself
    #[arg(long)]
    pub usage: bool,
    /// Record every tool call forwarded to this file instead
    #[arg(long, value_name = "PATH", conflicts_with = "usage")]
    pub usage_log: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum BridgeCommand {
    /// Stop the bridge of `--project PATH` (or the only one running)
    #[command(after_help = examples(&["mur devtools bridge stop --project ./Tools.csproj"]))]
    #[command(defer(in_bridge))]
    Stop,
}

#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    /// Print one JSON line per live session (exit 4 when there is none)
    #[command(defer(in_session))]
    #[command(
        long_about = "Print one JSON line per live session: the fields of its lockfile (exit 4 when there is none)\n\n\
            A session whose process runs but does not answer its probe is named on stderr, and \
            when no session answers that is exit 2, not 4. With `--project PATH`, only that \
            project's session is listed, and the exit code is about it alone (4 when it has none, \
            the other projects' sessions named on stderr). With `--auto`, sessions that left no \
            lockfile are found by a loopback port scan and listed the same way; the ports the scan \
            passed over (listeners that took a connection and never answered in the time the \
            probes have) are counted on stderr, in a `warning:` even with `-q` (a session among \
            them would be missing from the list), or in a hint under exit 4.",
        after_help = examples(&[
            "mur devtools session list",
            "mur devtools session list --pretty",
            "mur devtools session list | jq -r .endpoint",
            "mur devtools session list --auto",
        ])
    )]
    List {
        /// Print JSON lines also with `--pretty` (which prints a table instead)
        #[arg(long)]
        json: bool,
    },
    /// Remove lockfiles of sessions whose process is gone, and the files ended sessions left
    #[command(defer(in_session))]
    #[command(
        long_about = "Remove lockfiles of sessions whose process is gone, and the files ended sessions left\n\n\
            Beside its lockfile `<hash>.json` a session leaves its slot lock `<hash>.lock`, and a \
            bridge its sidecar `<hash>.bridge` and its log `<hash>.bridge.log` (up to 4 MiB, often \
            in memory): they are removed once the project has no lockfile and no process holds \
            its slot (a session or a bridge starting holds it before it writes anything). A live \
            session's lockfile is never touched, even when it does not answer, nor its files.",
        after_help = examples(&["mur devtools session clean --dry-run", "mur devtools session clean"])
    )]
    Clean {
        /// Print the files that would be removed, one per line, and remove nothing
        /// (a name with control characters or bytes that are not UTF-8 is printed
        /// quoted as `$'…'`, ready to paste into a shell)
        #[arg(long)]
        dry_run: bool,
    },
}

/// `mur devtools bridge --help`: what the bridge is and how it ends.
const BRIDGE_ABOUT: &str = "Keep a stdio MCP server running as a session (`bridge stop` ends it)

Starts SERVER (an MCP server that speaks on stdin and stdout, such as \
`npx -y @modelcontextprotocol/server-everything stdio`), initializes it once, and \
serves it on 127.0.0.1 as a devtools session for `--project PATH`: a lockfile, the \
probe, one session per project (a second one exits 3). Every verb, derived verb, \
`call` and `session list` then work against it, and the server stays warm between \
calls. Its progress, log messages and questions reach the caller.

In the background (unless `--foreground`): this command prints the session's line, as \
`session list` does, once the bridge is ready; a server that has not answered \
`initialize` within 60 s (time enough for `npx` to fetch it) is stopped, and this \
command exits 2 naming its log. The server's stderr and the bridge's \
messages go to the log named in that line (`log`). A server that dies is restarted, at \
most 5 times within any minute. The bridge stops after `--idle` without a request, or with `bridge stop`, \
and removes its lockfile.";

/// `mur devtools proxy --help`.
const PROXY_ABOUT: &str = "Serve MCP on stdin and stdout, forwarding each request to the session

For agent hosts that can only launch stdio MCP servers: configure `mur devtools proxy` \
(with `--project PATH` or `--endpoint URL` when there are several sessions) as the \
server's command. It answers `initialize` with the session's capabilities, forwards \
every request to the session (found for each request, as every command finds it, among \
the sessions of the project the first request found: it never turns to another project's), and \
relays the session's progress, log messages and questions. A request has no bound of \
mur's own unless `--timeout MS` is given (the agent host's own timeouts and cancels bound \
it). It ends when stdin ends, once the requests in flight are answered (a minute at most, \
then each is given up), and at once when stdout is closed: a killed agent host leaves no \
proxy behind. SIGTERM (how agent hosts end it), SIGINT or SIGHUP ends it at once too, also \
after stdin ended: each request in flight is given up (answered with an error naming the \
signal, its call cancelled), and it exits by the signal (143, 130, 129; a second signal ends it \
at once). Either way a session-based server's MCP session (2025-11-25 and older: one for \
the proxy's life) is ended, not left to the server's idle timeout.";

/// `mur devtools call --help`: exactly what is sent for each form.
const CALL_ABOUT: &str = "Call a tool, or send any JSON-RPC method

`call NAME` sends `tools/call` for the tool NAME, with `--args` as its arguments: \
a JSON object, by name (`{}` without `--args` or with `--args null`). \
`--args @FILE` reads it from FILE and `--args -` from stdin, for arguments longer \
than a command line takes (a word of 128 KiB on Linux); at most 4 MiB, what a session \
takes in one request (the whole request: the arguments, escaped as JSON, and the call).

A NAME with a `/` (`tools/list`, `resources/read`) is a JSON-RPC method instead, \
sent as it is with `--args` as its params (a JSON object).

`call ping` asks whether the session answers: it sends `ping`, and when the server \
has no such method (the 2026-07-28 revision dropped it) `server/discover` instead; \
it prints `{}` and exits 0 when the session answers.

`--out PATH` writes what the tool (or `resources/read`) returned as base64 (images, \
audio, blobs) to files (`shot.png`, then `shot-2.png`…; one of another type gets its \
own extension), and prints the result with each one's data replaced by its `path` \
and `bytes`; a result with none to write, or with more than 100, is exit 5, printed \
as it came. A directory that does not exist, or `--out -` on a terminal, is refused \
before the call.

`--method METHOD` sends any method as it is, with or without a `/`, and nothing \
else (`--method ping` sends `ping` alone). A tool that is itself named `ping` is \
called with `call tools/call --args '{\"name\": \"ping\", \"arguments\": {}}'`.";

#[derive(Debug, Args)]
pub struct CallArgs {
    /// Tool name (`tree`); a name with a `/` (`tools/list`) is a JSON-RPC method; `ping` checks the session
    // An empty one is taken, and refused by `call` itself ("the tool name is empty").
    #[arg(required_unless_present = "method", conflicts_with = "method")]
    pub name: Option<String>,
    /// Send this JSON-RPC method as it is, with `--args` as its params
    #[arg(long, value_name = "METHOD", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub method: Option<String>,
    /// Tool arguments, or the method's params, as a JSON value; `@FILE` reads it from
    /// FILE, `-` from stdin (for one too long for a command line)
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,
    /// Write the tool's images, audio and blobs to PATH (`-`: the first one's bytes to
    /// stdout); more than one: PATH, then PATH with `-2`, `-3`… before its extension
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Words after NAME, taken only to be refused with the way to pass them
    /// (`--args`): agents often write `call click '{"selector": "#x"}'`, or a verb's
    /// options, `call state --selector '#count'`.
    #[arg(
        hide = true,
        num_args = 0..,
        allow_hyphen_values = true,
        trailing_var_arg = true
    )]
    pub stray: Vec<String>,
}

/// Manage the verb components `mur devtools` dispatches to.
#[derive(Debug, Clone, Subcommand)]
pub enum VerbsCommand {
    /// List installed verbs (a table; `--json` for a JSON array)
    #[command(defer(in_verbs))]
    #[command(
        after_help = "Examples:\n  mur devtools verbs list\n  mur devtools verbs list --json | jq -r '.[].name'\n  mur devtools verbs list --all"
    )]
    List {
        /// Print a JSON array with every index field
        #[arg(long)]
        json: bool,
        /// Also list the session's derived verbs, with each verb's kind (plugin, data, derived)
        #[arg(long, conflicts_with = "json")]
        all: bool,
    },
    /// Install verbs: components (`.wasm`, mur:verb/verb) or data verbs (`.json`, mur-verb/1)
    #[command(defer(in_verbs))]
    #[command(
        after_help = "A data verb is one JSON file, built by no compiler: it calls one tool with fixed arguments,\n\
                      options set more, and it prints the result or one field of it. This one, saved as count.json\n\
                      and added, is the sample app's counter, `mur devtools count [<selector>] [--args JSON]`:\n  \
                      {\"schema\": \"mur-verb/1\", \"name\": \"count\", \"tool\": \"state\",\n   \
                      \"summary\": \"Print the counter's value\", \"arguments\": {\"selector\": \"#count\"},\n   \
                      \"options\": [{\"field\": \"selector\", \"help\": \"read another element's text\"}],\n   \
                      \"output\": \"/text\"}\n\
                      Its fields: name, tool, summary, details, examples, arguments, options (each a field, type,\n\
                      help, required, choices) and output (a JSON pointer into the result).\n\n\
                      Examples:\n  mur devtools verbs add plugins/target/wasm32-unknown-unknown/release/mur_verb_*.wasm\n  \
                      mur devtools verbs add target/wasm32-wasip2/release/mur_verb_bump.wasm"
    )]
    Add {
        /// Verb files to install: components (`.wasm`) or data verbs (`.json`), told apart by content
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Replace an installed verb of the same name
        #[arg(long)]
        force: bool,
    },
    /// Uninstall verbs, and their compiled code
    #[command(defer(in_verbs))]
    #[command(after_help = "Examples:\n  mur devtools verbs remove bump")]
    Remove {
        /// The verbs' names; if one is not installed, none is removed
        #[arg(id = "name", required = true, value_name = "NAME")]
        names: Vec<String>,
    },
    /// Show an installed verb's tool, usage, file, hash and size
    #[command(defer(in_verbs))]
    #[command(
        after_help = "Examples:\n  mur devtools verbs info click\n  mur devtools verbs info click --json"
    )]
    Info {
        /// The verb's name
        name: String,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Remove the verbs the usage report calls losers (a dry run without --yes)
    #[command(defer(in_verbs))]
    #[command(after_help = examples(&[
        "mur devtools verbs prune",
        "mur devtools verbs prune --unused-for 14d --max-usage-error-rate 0.3",
        "mur devtools verbs prune --agent claude --dry-run",
        "mur devtools verbs prune --yes",
    ]))]
    Prune(PruneArgs),
    /// Create a project for a new verb in Rust, Python or JavaScript (its README says what next)
    #[command(defer(in_verbs))]
    #[command(
        after_help = "Examples:\n  mur devtools verbs new bump\n  mur devtools verbs new bump --dir ~/src\n  \
                            mur devtools verbs new bump --lang python\n  mur devtools verbs new bump --lang js"
    )]
    New {
        /// The new verb's name (the word after `mur devtools`)
        name: String,
        /// Create the project in DIR/<name> instead of ./<name>
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The language the verb is written in (any case; also `py`, `javascript`)
        #[arg(long, value_enum, ignore_case = true, default_value_t = Lang::Rust)]
        lang: Lang,
    },
}

/// What `verbs prune` judges by, and whether it removes.
#[derive(Debug, Clone, Args)]
#[command(mut_args(prune_wording))]
pub struct PruneArgs {
    #[command(flatten)]
    pub judging: JudgingArgs,
    /// Remove them (without it, print the commands and remove nothing)
    #[arg(long)]
    pub yes: bool,
    /// With --yes: remove them even while usage recording is off (the calls since are
    /// in no record)
    #[arg(long, requires = "yes")]
    pub while_off: bool,
    /// Print the commands and remove nothing (what happens without --yes)
    #[arg(long, conflicts_with = "yes")]
    pub dry_run: bool,
}

/// [`JudgingArgs`] as `verbs prune` lists them: the window and the rates first (what
/// makes a loser), then whose calls and which logs; the flags worded for a removal,
/// each pointing at the report's flag it matches.
fn prune_wording(arg: clap::Arg) -> clap::Arg {
    let (order, help) = match arg.get_id().as_str() {
        "unused_for" => (
            0,
            "A verb with no call in this long (`12h`, `14d`) is a loser, when the log goes back \
             that far",
        ),
        "until" => (
            1,
            "End the window at TIME instead of now: a UTC RFC 3339 time, or `last`, the newest \
             record of the --server-log logs (without them, of every log read; `usage report \
             --until`)",
        ),
        "agent" => (
            4,
            "Judge by this agent's calls only (`usage report --agent`)",
        ),
        "server_logs" => (
            5,
            "Also read these usage logs, as `usage report --server-log` (one or more paths, as a \
             glob gives them; repeatable): a session's kept elsewhere, or another home's mur log; \
             a verb called in one is not unused",
        ),
        "only_named" => (
            6,
            "Judge by the --server-log logs alone: not your own mur log, nor the sessions' logs \
             found beside it; the window ends at their last record, not now (--until sets \
             another end), one begun before their first record is judged from it, and every \
             installed verb is judged, whenever it was added (`usage report --only-named`)",
        ),
        "only_verbs" => (
            7,
            "Judge only these installed verbs (comma-separated; repeatable): the others are not \
             pruned, whatever their calls; a study's report names those of its runs \
             (`usage report --only-verbs`)",
        ),
        "max_usage_error_rate" => return arg.display_order(2),
        "max_plugin_failure_rate" => return arg.display_order(3),
        _ => return arg,
    };
    arg.display_order(order).help(help)
}

/// The languages `verbs new` scaffolds a verb in, taken in any case (`--lang Python`
/// was refused), each also by its other usual name, which `--lang`'s help lists (the
/// error's possible values do not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    Rust,
    #[value(alias = "py")]
    Python,
    #[value(alias = "javascript")]
    Js,
}

impl From<Lang> for mur_verbs::scaffold::Lang {
    fn from(lang: Lang) -> Self {
        match lang {
            Lang::Rust => Self::Rust,
            Lang::Python => Self::Python,
            Lang::Js => Self::JavaScript,
        }
    }
}

/// Whether `word` after `mur devtools` is one of mur's own commands (or `help`), without
/// building the command tree: for what runs on every call.
pub fn is_host_command(word: &str) -> bool {
    HOST_COMMANDS.contains(&word)
}

/// The words `mur devtools` answers itself (`session`, `call`, `verbs`,
/// `guide`, …, and clap's `help`): no verb may take one (`verbs new` and `verbs add`
/// refuse it), since the host's command would always win the word. Read off the command
/// tree (none of its callers is on a call's path: they add, make or list verbs, or
/// explain an unknown word); the fast path's own [`HOST_COMMANDS`] is held to the same tree
/// by `tests::the_fast_path_knows_every_host_command`.
pub fn host_verbs() -> Vec<String> {
    let tree = command();
    let devtools = tree.find_subcommand("devtools");
    devtools
        .into_iter()
        .flat_map(clap::Command::get_subcommands)
        .map(|c| c.get_name().to_owned())
        .chain(std::iter::once("help".to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// A value that starts with `-` after a space is the option's, refused as with `=`:
    /// `usage report --since -1d` was "unexpected argument `-1` found",
    /// `--max-usage-error-rate -0.1` "unexpected argument `-0`".
    #[test]
    fn a_dashed_value_after_a_space_is_the_options_as_after_an_equals_sign() {
        let refusal = |argv: &[&str]| {
            let error = command()
                .try_get_matches_from(["mur", "devtools"].iter().chain(argv))
                .expect_err("refused");
            (error.kind(), error.to_string())
        };
        let report: &[&str] = &["usage", "report"];
        let prune: &[&str] = &["verbs", "prune"];
        let bridge: &[&str] = &["bridge"];
        // The command, the option and its value, and what follows them.
        for (command, option, value, after) in [
            (report, "--since", "-1d", &[][..]),
            (report, "--unused-for", "-7d", &[]),
            (report, "--max-usage-error-rate", "-0.1", &[]),
            (report, "--max-plugin-failure-rate", "-1", &[]),
            (prune, "--unused-for", "-14d", &[]),
            (prune, "--max-usage-error-rate", "-0.3", &[]),
            (prune, "--max-plugin-failure-rate", "-inf", &[]),
            (bridge, "--idle", "-5m", &["--", "server"]),
            (bridge, "--max-message", "-5K", &["--", "server"]),
        ] {
            let joined_word = format!("{option}={value}");
            let spaced = refusal(&[command, &[option, value], after].concat());
            let joined = refusal(&[command, &[joined_word.as_str()], after].concat());
            assert_eq!(spaced, joined, "{option} {value}");
            assert_eq!(
                spaced.0,
                clap::error::ErrorKind::ValueValidation,
                "{}",
                spaced.1
            );
        }
    }

    #[test]
    fn the_host_commands_arguments_are_built_only_when_clap_builds_that_command() {
        let names = |cmd: &clap::Command| -> Vec<String> {
            cmd.get_arguments()
                .map(|a| a.get_id().to_string())
                .collect()
        };
        let mut cmd = command();
        let devtools = cmd.find_subcommand("devtools").expect("devtools");
        for name in ["session", "call", "verbs", "usage", "bridge"] {
            let sub = devtools.find_subcommand(name).expect(name);
            assert!(
                names(sub).is_empty(),
                "`{name}` was built: {:?}",
                names(sub)
            );
            assert_eq!(
                sub.get_subcommands().count(),
                0,
                "`{name}`'s subcommands were built"
            );
        }
        cmd.build();
        let devtools = cmd.find_subcommand("devtools").expect("devtools");
        let call = devtools.find_subcommand("call").expect("call");
        assert!(
            names(call).contains(&"args".to_owned()),
            "{:?}",
            names(call)
        );
        let session = devtools.find_subcommand("session").expect("session");
        assert_eq!(session.get_subcommands().count(), 2, "list and clean");
    }

    #[test]
    fn host_verbs_are_the_devtools_commands() {
        let mut words = host_verbs();
        words.sort();
        assert_eq!(
            words,
            [
                "bridge", "call", "catalog", "guide", "help", "parity", "proxy", "session",
                "usage", "verbs"
            ]
        );
    }

    /// Each command of [`COMMAND_READS`] lists in its help the host options it reads and
    /// no other, and refuses another typed, in one wording; a call lists them all.
    #[test]
    fn a_command_lists_the_host_options_it_reads_and_refuses_the_others() {
        let listed = |words: &[&str]| -> Vec<String> {
            let argv = std::iter::once("mur").chain(words.iter().copied());
            let error = command()
                .try_get_matches_from(argv.chain(["--help"]))
                .expect_err("help");
            let text = error.render().to_string();
            let host = text.split("Host options:").nth(1).unwrap_or_default();
            let host = host.split("\n\n").filter(|b| !b.starts_with("Examples"));
            host.flat_map(|block| block.lines())
                .map(str::trim_start)
                .filter(|line| line.starts_with('-'))
                .filter_map(|line| line.split(' ').find(|w| w.starts_with("--")))
                .map(|word| {
                    word.trim_end_matches(',')
                        .trim_start_matches("--")
                        .to_owned()
                })
                .collect()
        };
        for (path, _) in COMMAND_READS {
            let words: Vec<&str> = path.split(' ').collect();
            let expected: Vec<String> = HOST_OPTIONS
                .iter()
                .filter(|option| reads(path, &option.id()))
                .map(|option| option.long.to_owned())
                .collect();
            assert_eq!(listed(&words), expected, "{path}");
            let Some(unread) = HOST_OPTIONS.iter().find(|o| !reads(path, &o.id())) else {
                continue;
            };
            let mut argv = vec!["mur".to_owned()];
            argv.extend(words.iter().map(|w| w.to_string()));
            argv.push(format!("--{}", unread.long));
            let value = match unread.long {
                "endpoint" => "http://127.0.0.1:1/mcp",
                "auto-range" => "1024-2048",
                "protocol" => "2025-06-18",
                "answer" => "a=b",
                _ => "5",
            };
            argv.extend(unread.value.map(|_| value.to_owned()));
            // What each takes beside (its arguments: a file, a name, a shell, a server).
            let rest: &[&str] = match *path {
                "completions" => &["bash"],
                "devtools verbs add" => &["x.wasm"],
                "devtools verbs remove" | "devtools verbs info" | "devtools verbs new" => &["x"],
                "devtools bridge" => &["--", "server"],
                _ => &[],
            };
            argv.extend(rest.iter().map(|w| w.to_string()));
            let matches = command().try_get_matches_from(&argv).expect("parsed");
            let cli = <Cli as clap::FromArgMatches>::from_arg_matches(&matches).expect("a Cli");
            let refused = cli.unread_option(&matches).unwrap_or_default();
            assert!(
                refused.starts_with(&format!("`--{}` does nothing for `", unread.long)),
                "{argv:?}: {refused}"
            );
        }
        assert_eq!(
            listed(&["devtools", "session", "list"]),
            [
                "project",
                "auto",
                "auto-full",
                "auto-range",
                "timeout",
                "pretty",
                "verbose",
                "quiet"
            ]
        );
        assert_eq!(listed(&["devtools", "guide"]), ["verbose", "quiet"]);
        let every: Vec<String> = HOST_OPTIONS.iter().map(|o| o.long.to_owned()).collect();
        assert_eq!(listed(&["devtools", "call"]), every);
    }

    /// A command added to the tree and not to the fast path's list would reach an
    /// installed verb of that name instead of the host's command.
    #[test]
    fn the_fast_path_knows_every_host_command() {
        let tree = command();
        let devtools = tree.find_subcommand("devtools").expect("devtools");
        let mut tree: Vec<String> = devtools
            .get_subcommands()
            .map(|c| c.get_name().to_owned())
            .chain(std::iter::once("help".to_owned()))
            .collect();
        tree.sort();
        let mut listed: Vec<&str> = HOST_COMMANDS.to_vec();
        listed.sort_unstable();
        assert_eq!(tree, listed);
    }

    /// The fast path answers only where clap would hand the words to a verb or fill
    /// `call`'s tool and `--args`, and answers exactly what clap makes of them.
    #[test]
    fn a_plain_verb_call_is_what_clap_makes_of_it() {
        let argv = |words: &[&str]| -> Vec<std::ffi::OsString> {
            std::iter::once("mur")
                .chain(words.iter().copied())
                .map(Into::into)
                .collect()
        };
        let plain: &[&[&str]] = &[
            &["devtools", "state"],
            &["devtools", "state", "--selector", "#count"],
            &["devtools", "click", "#btn-inc", "--timeout", "50", "-v"],
            &["devtools", "tree", "--help"],
            &["devtools", "wait", "#x", "--", "--pretty"],
            &["devtools", "clear-todos", "--version", ""],
            &["devtools", "x", "-h"],
            &["devtools", "call", "state"],
            &["devtools", "call", "state", "--args", r##"{"a": "#b"}"##],
            &["devtools", "call", "state", "--args=-1"],
            &["devtools", "call", "state", "--args", ""],
            &["devtools", "call", "tools/list"],
            &["devtools", "call", "help"],
        ];
        for words in plain {
            let argv = argv(words);
            let fast = plain_verb_call(&argv).unwrap_or_else(|| panic!("{words:?}: no fast path"));
            let matches = command()
                .try_get_matches_from(&argv)
                .expect("clap parses it");
            let full = <Cli as clap::FromArgMatches>::from_arg_matches(&matches).expect("a Cli");
            assert_eq!(format!("{fast:?}"), format!("{full:?}"), "{words:?}");
        }
        let for_clap: &[&[&str]] = &[
            &["devtools"],
            &["devtools", "-v", "state"],
            &["devtools", "--timeout", "50", "state"],
            &["devtools", "--pretty"],
            &["devtools", "session", "list"],
            &["devtools", "call"],
            &["devtools", "call", ""],
            &["devtools", "call", "--method", "ping"],
            &["devtools", "call", "state", "--method", "ping"],
            &["devtools", "call", "state", "--args", "-1"],
            &["devtools", "call", "state", "--args"],
            &["devtools", "call", "state", "--pretty"],
            &["devtools", "call", "state", "--args", "{}", "-q"],
            &["devtools", "call", "state", "extra"],
            &["devtools", "call", "--", "state"],
            &["devtools", "call", "state", "--help"],
            &["devtools", "help", "state"],
            &["devtools", ""],
            &["-v", "devtools", "state"],
            &["completions", "bash"],
            &["--version"],
        ];
        for words in for_clap {
            assert!(plain_verb_call(&argv(words)).is_none(), "{words:?}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt as _;
            let mut not_utf8 = argv(&["devtools", "state"]);
            not_utf8.push(std::ffi::OsString::from_vec(vec![b'#', 0xff]));
            assert!(plain_verb_call(&not_utf8).is_none(), "left to clap's error");
        }
    }

    /// Every command's `--help` ends with an "Examples:" block.
    #[test]
    fn every_command_has_examples() {
        fn check(cmd: &mut clap::Command, path: &str) {
            let path = format!("{path} {}", cmd.get_name());
            let help = cmd.render_long_help().to_string();
            assert!(
                help.contains("Examples:\n  mur "),
                "`{path} --help` has no examples:\n{help}"
            );
            for sub in cmd.get_subcommands_mut() {
                check(sub, &path);
            }
        }
        let mut cmd = command();
        cmd.build();
        check(&mut cmd, "");
    }

    #[test]
    fn plugin_verbs_keep_their_arguments_raw() {
        let cli = Cli::try_parse_from([
            "mur",
            "devtools",
            "--pretty",
            "wait",
            "#x",
            "--timeout",
            "8000",
        ])
        .expect("parses");
        assert!(cli.host.pretty);
        assert_eq!(cli.host.timeout, DEFAULT_TIMEOUT_MS);
        let Command::Devtools(d) = cli.command else {
            panic!("not `devtools`")
        };
        let Verb::Plugin(argv) = d.verb else {
            panic!("not a plugin verb")
        };
        assert_eq!(argv, ["wait", "#x", "--timeout", "8000"]);
    }

    #[test]
    fn host_options_follow_host_verbs() {
        let cli = Cli::try_parse_from([
            "mur",
            "devtools",
            "call",
            "ping",
            "--timeout",
            "5",
            "--pretty",
        ])
        .expect("parses");
        assert!(cli.host.pretty);
        assert_eq!(cli.host.timeout, 5);
        assert!(matches!(cli.command, Command::Devtools(_)));
    }

    #[test]
    fn host_options_before_devtools_are_the_same_options() {
        let cli = Cli::try_parse_from(["mur", "-v", "--timeout", "7", "devtools", "call", "ping"])
            .expect("parses");
        assert!(cli.host.verbose);
        assert_eq!(cli.host.timeout, 7);
    }
}
