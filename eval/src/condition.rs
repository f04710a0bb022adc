//! Conditions as data: one TOML file per condition (`eval/conditions/<name>.toml`) names
//! the surface the agent gets (`cli` or `mcp`), for `cli` the verb set (the standard
//! named verbs, derived verbs only, `call` only, or a directory of verb files), the
//! instructions put in the agent's working directory, and for `mcp` the client
//! configuration. A condition that would put the other surface in the agent's reach is
//! refused when it is loaded.

use std::path::{Path, PathBuf};

use mur_core::{Error, Result};
use mur_usage::Kind;
use serde::Deserialize;

use crate::adapters::Format;
use crate::counterbalance::Counterbalanced;
use crate::profile::Profile;

/// The conditions shipped with mur-eval.
pub const CONDITION_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/conditions");

/// The verbs a cli condition installs for the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerbSet {
    /// The standard named verbs (the study's `--verbs` directory); tools without one
    /// keep their derived verb.
    Named,
    /// No named verb: every tool is its derived verb.
    Derived,
    /// No named verb, and only `mur devtools call` is the condition's way in.
    Call,
    /// The verb files (`*.wasm` components, `*.json` data verbs) of a directory.
    Dir(PathBuf),
}

impl VerbSet {
    /// Whether a call the session served through mur with verb kind `kind` keeps to the
    /// condition (mur names the kind in every request; help and the guide make none).
    pub fn allows(&self, kind: Option<Kind>) -> bool {
        match (self, kind) {
            (VerbSet::Derived, Some(kind)) => kind == Kind::Derived,
            (VerbSet::Call, Some(kind)) => kind == Kind::Call,
            _ => true,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            VerbSet::Named => "named".to_owned(),
            VerbSet::Derived => "derived".to_owned(),
            VerbSet::Call => "call".to_owned(),
            VerbSet::Dir(dir) => dir.display().to_string(),
        }
    }
}

/// The MCP client configuration of an mcp condition.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpClient {
    /// The configuration file's name in the agent's working directory.
    #[serde(default = "default_mcp_file")]
    pub file: String,
    /// The server's name under `mcpServers`.
    #[serde(default = "default_mcp_server")]
    pub server: String,
}

impl Default for McpClient {
    fn default() -> Self {
        Self {
            file: default_mcp_file(),
            server: default_mcp_server(),
        }
    }
}

fn default_mcp_file() -> String {
    crate::profile::MCP_CONFIG.to_owned()
}

fn default_mcp_server() -> String {
    "mur-sample".to_owned()
}

/// One condition, validated.
#[derive(Debug, Clone)]
pub struct Condition {
    /// The file name without `.toml`.
    pub name: String,
    pub description: String,
    pub surface: Profile,
    /// `cli` only.
    pub verbs: Option<VerbSet>,
    /// Verb files installed over the verb set, replacing the verbs of the same names (a
    /// reshaped set A/B-tested against the standard one); read when the study starts.
    pub verbs_over: Option<PathBuf>,
    /// The instructions text and the file name it gets in the agent's working directory.
    pub instructions: String,
    pub instructions_file: String,
    /// `both` only, with `counterbalance = true`: the instructions' two surfaces, named in
    /// an order that varies across runs.
    pub counterbalanced: Option<Counterbalanced>,
    /// `mcp` only.
    pub mcp: Option<McpClient>,
    /// How to read the agent's output, unless `--agent-format` says otherwise.
    pub agent_format: Option<Format>,
    /// The sha256 of the condition's file followed by its instructions', hex: a study
    /// records it per run, so runs given different instructions are told apart.
    pub sha256: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConditionFile {
    description: String,
    surface: Profile,
    verbs: Option<String>,
    verbs_over: Option<PathBuf>,
    instructions: PathBuf,
    #[serde(default = "default_instructions_file")]
    instructions_file: String,
    #[serde(default)]
    counterbalance: bool,
    mcp: Option<McpClient>,
    agent_format: Option<Format>,
}

fn default_instructions_file() -> String {
    "AGENTS.md".to_owned()
}

/// Words in instructions that point an agent at the other surface.
const CLI_WORDS: [&str; 2] = ["mur devtools", "`mur`"];
const MCP_WORDS: [&str; 3] = ["mcpServers", ".mcp.json", "MCP server"];

/// Every condition in `dir`, sorted by name.
pub fn load_dir(dir: &Path) -> Result<Vec<Condition>> {
    let paths = crate::listing::files(dir, "condition", "conditions (`*.toml`)", &["toml"])?;
    paths.iter().map(|path| load(path)).collect()
}

/// The conditions of `dir` named in `names` (all of them when `names` is empty or `all`),
/// in the order named, each once (a name given twice is the one condition).
pub fn select(all: Vec<Condition>, names: &[String]) -> Result<Vec<Condition>> {
    if names.is_empty() || names.iter().any(|n| n == "all") {
        return Ok(all);
    }
    crate::task::once(names)
        .into_iter()
        .map(|name| {
            all.iter()
                .find(|c| &c.name == name)
                .cloned()
                .ok_or_else(|| {
                    let known: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
                    // Said as an unknown task is, the list in the line (as clap's
                    // possible values are, in mur's words).
                    Error::usage(format!(
                        "no condition `{name}` (conditions: {})",
                        known.join(", ")
                    ))
                })
        })
        .collect()
}

/// The condition in `path`; its instructions and verb directory are relative to it.
pub fn load(path: &Path) -> Result<Condition> {
    // Opened without waiting: a FIFO by a condition's name is refused at once.
    let text = crate::bounded::text(path, crate::bounded::FILE_CAP).map_err(Error::usage)?;
    let file: ConditionFile = toml::from_str(&text).map_err(|e| {
        Error::usage(format!(
            "`{}` is not a valid condition: {}",
            path.display(),
            crate::toml_file::located(&text, &e)
        ))
    })?;
    let name = path
        .file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or_default()
        .to_owned();
    // As a task id: a name that is one word in a table, a path, a `--conditions` list
    // and the agent command.
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(Error::usage(format!(
            "`{}`: `{name}` is not a condition name: use letters, digits and `-` in the file name",
            path.display()
        )));
    }
    let base = path.parent().unwrap_or(Path::new("."));
    let instructions_path = base.join(&file.instructions);
    let instructions = crate::bounded::text(&instructions_path, crate::bounded::FILE_CAP)
        .map_err(|why| Error::usage(format!("condition `{name}`: its instructions: {why}")))?;
    let surface = file.surface;
    let verbs = file
        .verbs
        .as_deref()
        .map(|verbs| verb_set(verbs, base))
        .transpose()?;
    let counterbalanced = match (file.counterbalance, surface) {
        (false, _) => None,
        (true, Profile::Both) => Some(
            Counterbalanced::parse(&instructions, &CLI_WORDS, &MCP_WORDS)
                .map_err(|e| Error::usage(format!("condition `{name}`: {}", e.message())))?,
        ),
        (true, _) => {
            return Err(Error::usage(format!(
                "condition `{name}`: `counterbalance = true` is for a `both` condition, which \
                 names two surfaces"
            )));
        }
    };
    let sha256 = mur_core::sha256_hex(&[text.as_bytes(), instructions.as_bytes()].concat());
    let condition = Condition {
        name,
        description: file.description,
        surface,
        verbs,
        verbs_over: file.verbs_over.map(|dir| beside(base, &dir)),
        instructions,
        instructions_file: file.instructions_file,
        counterbalanced,
        mcp: file.mcp,
        agent_format: file.agent_format,
        sha256,
    };
    refuse_leaks(condition)
}

/// `dir` as a condition names it, relative to the condition's directory `base`: its real
/// path when it exists, else without its `.` and `..` (`eval/conditions/../../plugins/…`
/// said as `plugins/…` in an error naming a directory not built yet).
fn beside(base: &Path, dir: &Path) -> PathBuf {
    let joined = base.join(dir);
    std::fs::canonicalize(&joined).unwrap_or_else(|_| {
        let mut clean = PathBuf::new();
        for part in joined.components() {
            match part {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir
                    if matches!(
                        clean.components().next_back(),
                        Some(std::path::Component::Normal(_))
                    ) =>
                {
                    clean.pop();
                }
                other => clean.push(other),
            }
        }
        clean
    })
}

fn verb_set(text: &str, base: &Path) -> Result<VerbSet> {
    Ok(match text {
        "named" => VerbSet::Named,
        "derived" => VerbSet::Derived,
        "call" => VerbSet::Call,
        dir => {
            let dir = beside(base, Path::new(dir));
            if !dir.is_dir() {
                return Err(Error::usage(format!(
                    "`verbs = \"{text}\"` is neither `named`, `derived`, `call` nor a directory (`{}`)",
                    dir.display()
                )));
            }
            VerbSet::Dir(dir)
        }
    })
}

/// A condition may put only its own surface in the agent's reach (a `both` one, both).
fn refuse_leaks(mut condition: Condition) -> Result<Condition> {
    let name = condition.name.clone();
    let leak = |what: String| {
        Err(Error::usage(format!(
            "condition `{name}` leaks the other surface: {what}"
        )))
    };
    if condition.instructions_file.contains('/') || condition.instructions_file.starts_with('.') {
        return leak(format!(
            "`instructions_file = \"{}\"` must be a plain file name",
            condition.instructions_file
        ));
    }
    match condition.surface {
        Profile::Cli => {
            if condition.mcp.is_some() {
                return leak("a cli condition has an `[mcp]` client configuration".to_owned());
            }
            if let Some(word) = mentioned(&condition.instructions, &MCP_WORDS) {
                return leak(format!("its cli instructions mention `{word}`"));
            }
            condition.verbs.get_or_insert(VerbSet::Named);
        }
        Profile::Mcp => {
            if condition.verbs.is_some() || condition.verbs_over.is_some() {
                return leak("an mcp condition names `verbs`; mur is not in its reach".to_owned());
            }
            if let Some(word) = mentioned(&condition.instructions, &CLI_WORDS) {
                return leak(format!("its mcp instructions mention {word}"));
            }
            condition.mcp.get_or_insert_with(McpClient::default);
        }
        // Both surfaces are the point: the instructions may name either.
        Profile::Both => {
            condition.verbs.get_or_insert(VerbSet::Named);
            condition.mcp.get_or_insert_with(McpClient::default);
        }
    }
    Ok(condition)
}

/// The first of `words` that `text` mentions.
fn mentioned<'a>(text: &str, words: &[&'a str]) -> Option<&'a str> {
    words.iter().copied().find(|word| text.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path
    }

    #[test]
    fn the_shipped_conditions_load() {
        let all = load_dir(Path::new(CONDITION_DIR)).expect("the shipped conditions are valid");
        let names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
        for wanted in [
            "both",
            "cli-call",
            "cli-compact",
            "cli-derived",
            "cli-named",
            "mcp",
        ] {
            assert!(names.contains(&wanted), "{names:?}");
        }
        // Both surfaces: the named verbs and the MCP configuration, both instructions.
        let both = all.iter().find(|c| c.name == "both").expect("both");
        assert_eq!(both.surface, Profile::Both);
        assert_eq!(both.verbs, Some(VerbSet::Named));
        assert_eq!(
            both.mcp.as_ref().map(|m| m.file.as_str()),
            Some(".mcp.json")
        );
        assert!(mentioned(&both.instructions, &MCP_WORDS).is_some());
        assert!(mentioned(&both.instructions, &CLI_WORDS).is_some());
        // Its two surfaces are named in either order, half the runs each.
        let order = both.counterbalanced.as_ref().expect("counterbalanced");
        assert_eq!(order.text(false).0, both.instructions);
        assert_ne!(order.text(true).0, both.instructions);
        assert_ne!(order.text(false).1, order.text(true).1);
        let mcp = all.iter().find(|c| c.name == "mcp").expect("mcp");
        assert_eq!(mcp.surface, Profile::Mcp);
        assert_eq!(mcp.mcp.as_ref().map(|m| m.file.as_str()), Some(".mcp.json"));
        let call = all.iter().find(|c| c.name == "cli-call").expect("cli-call");
        assert_eq!(call.verbs, Some(VerbSet::Call));
        assert!(!VerbSet::Call.allows(Some(Kind::Derived)));
        assert!(VerbSet::Call.allows(Some(Kind::Call)));
        assert!(VerbSet::Named.allows(Some(Kind::Derived)));
    }

    /// The instructions are the treatment: a condition whose instructions or toml
    /// changed is another version of it.
    #[test]
    fn a_condition_is_known_by_its_file_and_its_instructions() {
        let dir = tempfile::tempdir().expect("tempdir");
        let toml = "description = \"d\"\nsurface = \"cli\"\ninstructions = \"i.md\"\n";
        let path = write(dir.path(), "c.toml", toml);
        write(dir.path(), "i.md", "Use `mur devtools guide`.");
        let first = load(&path).expect("valid").sha256;
        assert_eq!(first.len(), 64);
        write(dir.path(), "i.md", "Use `mur devtools guide` first.");
        let edited = load(&path).expect("valid").sha256;
        assert_ne!(edited, first);
        write(dir.path(), "c.toml", &format!("{toml}verbs = \"call\"\n"));
        assert_ne!(load(&path).expect("valid").sha256, edited);
    }

    #[test]
    fn a_condition_that_leaks_the_other_surface_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "cli.md", "Use `mur devtools guide`.");
        write(
            dir.path(),
            "mcp.md",
            "The app's MCP server is in .mcp.json.",
        );
        let cases = [
            (
                "surface = \"cli\"\ninstructions = \"cli.md\"\n[mcp]\n",
                "a cli condition has an `[mcp]` client configuration",
            ),
            (
                "surface = \"cli\"\ninstructions = \"mcp.md\"\n",
                "its cli instructions mention `.mcp.json`",
            ),
            (
                "surface = \"mcp\"\ninstructions = \"cli.md\"\n",
                "its mcp instructions mention mur devtools",
            ),
            (
                "surface = \"mcp\"\nverbs = \"named\"\ninstructions = \"mcp.md\"\n",
                "an mcp condition names `verbs`; mur is not in its reach",
            ),
        ];
        for (body, why) in cases {
            let path = write(
                dir.path(),
                "leaky.toml",
                &format!("description = \"x\"\n{body}"),
            );
            let error = load(&path).expect_err(body);
            assert_eq!(
                error.message(),
                format!("condition `leaky` leaks the other surface: {why}")
            );
        }
    }

    #[test]
    fn an_unknown_field_or_verb_set_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "cli.md", "Use mur.");
        let cases = [
            (
                "typo.toml",
                "verb = \"named\"",
                "is not a valid condition: line 4, column 1: unknown field `verb`",
            ),
            ("odd.toml", "verbs = \"nowhere\"", "neither `named`"),
            (
                "one.toml",
                "counterbalance = true",
                "`counterbalance = true` is for a `both` condition",
            ),
        ];
        for (file, line, message) in cases {
            let text = format!(
                "description = \"x\"\nsurface = \"cli\"\ninstructions = \"cli.md\"\n{line}\n"
            );
            let error = load(&write(dir.path(), file, &text)).expect_err(message);
            assert!(error.message().contains(message), "{}", error.message());
        }
    }

    #[test]
    fn a_surface_other_than_cli_mcp_or_both_is_refused_where_it_is_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "cli.md", "Use mur.");
        let text = "description = \"x\"\nsurface = \"web\"\ninstructions = \"cli.md\"\n";
        let path = write(dir.path(), "web.toml", text);
        let error = load(&path).expect_err("refused");
        assert_eq!(
            error.message(),
            format!(
                "`{}` is not a valid condition: line 2, column 11: unknown variant `web`, \
                 expected one of `cli`, `mcp`, `both`",
                path.display()
            )
        );
    }

    #[test]
    fn select_keeps_the_order_named_and_refuses_an_unknown_name() {
        let all = load_dir(Path::new(CONDITION_DIR)).expect("shipped");
        let names = ["mcp", "cli-named", "mcp"].map(str::to_owned);
        let picked = select(all.clone(), &names).expect("known names");
        assert_eq!(picked.len(), 2, "each once");
        assert_eq!(picked[0].name, "mcp");
        assert_eq!(picked[1].name, "cli-named");
        let known: Vec<String> = all.iter().map(|c| c.name.clone()).collect();
        let error = select(all, &["nope".to_owned()]).expect_err("unknown");
        // The list in the line, as an unknown task's is.
        assert_eq!(
            (error.message(), error.hints()),
            (
                format!("no condition `nope` (conditions: {})", known.join(", ")).as_str(),
                &[][..]
            )
        );
    }

    #[test]
    fn a_condition_name_is_letters_digits_and_dashes() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("x.md"), "Use the tools.\n").expect("write");
        let path = dir.path().join("derived | fast.toml");
        std::fs::write(
            &path,
            "description = \"x\"\nsurface = \"cli\"\nverbs = \"derived\"\ninstructions = \"x.md\"\n",
        )
        .expect("write");
        let error = load(&path).expect_err("refused");
        assert_eq!(
            error.message(),
            format!(
                "`{}`: `derived | fast` is not a condition name: use letters, digits and `-` in the file name",
                path.display()
            )
        );
        let fine = dir.path().join("derived-fast.toml");
        std::fs::rename(&path, &fine).expect("rename");
        assert_eq!(load(&fine).expect("loads").name, "derived-fast");
    }
}
