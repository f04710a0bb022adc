//! `mur devtools verbs …`: list, add, remove and inspect installed verbs.

use std::path::{Path, PathBuf};

use super::bindings::VerbInfo;
use super::bounded::{self, Links, Refusal};
use super::cache::CodeCache;
use super::dirs::VerbDirs;
use super::error::{VerbError, io_error};
use super::index::{Entry, Index, stamp, write_atomic};
use super::instance::Instance;
use super::runtime::{Runtime, sha256_hex};

/// Words the host itself answers after `mur devtools`; a verb may take one only
/// with `--force`.
pub const HOST_VERBS: &[&str] = &["session", "call", "verbs", "guide", "completions", "help"];

/// Manage the verb components `mur devtools` dispatches to.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum VerbsCommand {
    /// List installed verbs (a table; `--json` for a JSON array)
    #[command(
        after_help = "Examples:\n  mur devtools verbs list\n  mur devtools verbs list --json | jq -r '.[].name'"
    )]
    List {
        /// Print a JSON array with every index field
        #[arg(long)]
        json: bool,
    },
    /// Install verb components (`.wasm` files implementing mur:verb/verb)
    #[command(
        after_help = "Examples:\n  mur devtools verbs add plugins/target/wasm32-wasip2/release/mur_verb_*.wasm\n  \
                            mur devtools verbs add --force target/wasm32-wasip2/release/mur_verb_bump.wasm"
    )]
    Add {
        /// Component files to install
        #[arg(required = true, value_name = "FILE.wasm")]
        files: Vec<PathBuf>,
        /// Replace an installed verb of the same name, or shadow a host verb
        #[arg(long)]
        force: bool,
    },
    /// Uninstall a verb; it is gone from help and dispatch at once
    #[command(after_help = "Examples:\n  mur devtools verbs remove bump")]
    Remove {
        /// The verb's name
        name: String,
    },
    /// Show an installed verb's tool, usage, file, hash and size
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
    /// Create a Rust crate for a new verb (see docs/verbs.md)
    #[command(
        after_help = "Examples:\n  mur devtools verbs new bump\n  mur devtools verbs new bump --dir ~/src"
    )]
    New {
        /// The new verb's name (the word after `mur devtools`)
        name: String,
        /// Create the crate in DIR/<name> instead of ./<name>
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// Run one `verbs` subcommand, printing its result on stdout.
pub fn run_verbs_command(cmd: &VerbsCommand) -> Result<(), VerbError> {
    run_verbs_command_in(&VerbDirs::from_env()?, cmd)
}

/// [`run_verbs_command`] on explicit directories.
pub fn run_verbs_command_in(dirs: &VerbDirs, cmd: &VerbsCommand) -> Result<(), VerbError> {
    let mut index = Index::load(&dirs.verbs)?;
    match cmd {
        VerbsCommand::List { json } => list(&index, *json, dirs),
        VerbsCommand::Add { files, force } => add(&mut index, dirs, files, *force),
        VerbsCommand::Remove { name } => remove(&mut index, dirs, name),
        VerbsCommand::Info { name, json } => info(&index, name, *json),
        VerbsCommand::New { name, dir } => crate::scaffold::new_verb(name, dir.as_deref()),
    }
}

fn list(index: &Index, json: bool, dirs: &VerbDirs) -> Result<(), VerbError> {
    if json {
        return print_json(&index.verbs);
    }
    if index.verbs.is_empty() {
        eprintln!("no verbs are installed in `{}`", dirs.verbs.display());
        eprintln!("hint: install some with `mur devtools verbs add <file.wasm>...`");
        return Ok(());
    }
    let name_w = index
        .verbs
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let tool_w = index
        .verbs
        .iter()
        .map(|e| e.tool.len())
        .max()
        .unwrap_or(0)
        .max(4);
    println!("{:name_w$}  {:tool_w$}  SUMMARY", "NAME", "TOOL");
    for e in &index.verbs {
        println!("{:name_w$}  {:tool_w$}  {}", e.name, e.tool, e.summary);
    }
    Ok(())
}

fn info(index: &Index, name: &str, json: bool) -> Result<(), VerbError> {
    let entry = index.get(name).ok_or_else(|| not_installed(name))?;
    if json {
        return print_json(entry);
    }
    println!("name:    {}", entry.name);
    println!("tool:    {}", entry.tool);
    println!("summary: {}", entry.summary);
    println!("file:    {}", index.file_path(entry).display());
    println!("sha256:  {}", entry.sha256);
    println!("size:    {} bytes", entry.size);
    println!("added:   {}", entry.added_at);
    println!("\n{}", entry.usage);
    Ok(())
}

fn remove(index: &mut Index, dirs: &VerbDirs, name: &str) -> Result<(), VerbError> {
    let entry = index.remove(name).ok_or_else(|| not_installed(name))?;
    // Index first: once it is saved the verb is gone from help and dispatch,
    // even if deleting the file below fails.
    index.save()?;
    let path = dirs.verbs.join(&entry.file);
    if let Err(e) = std::fs::remove_file(&path)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        return Err(io_error("delete", &path, e));
    }
    CodeCache::open(&dirs.cache).forget(&entry.sha256);
    println!("removed verb `{name}`");
    Ok(())
}

/// A component that passed every check, ready to be copied in.
struct Candidate {
    info: VerbInfo,
    bytes: Vec<u8>,
    sha256: String,
}

/// Check every file first and install only if all pass, so a refused file never
/// leaves half of a batch installed.
fn add(
    index: &mut Index,
    dirs: &VerbDirs,
    files: &[PathBuf],
    force: bool,
) -> Result<(), VerbError> {
    let runtime = Runtime::new(&dirs.cache)?;
    let mut candidates: Vec<Candidate> = Vec::new();
    for file in files {
        let candidate = inspect(&runtime, file)?;
        if candidates
            .iter()
            .any(|c| c.info.name == candidate.info.name)
        {
            return Err(VerbError::Registry(format!(
                "two of the files given are verb `{}`",
                candidate.info.name
            )));
        }
        if admit(index, &candidate, force)? {
            candidates.push(candidate);
        }
    }
    std::fs::create_dir_all(&dirs.verbs).map_err(|e| io_error("create", &dirs.verbs, e))?;
    for candidate in candidates {
        install(index, dirs, candidate)?;
    }
    Ok(())
}

/// What every refusal of a file in `verbs add` suggests.
const WHAT_A_VERB_IS: &str =
    "a verb is a WebAssembly component built against wit/verb.wit (package mur:verb@0.1.0)";

/// Read a file the user named (a link to a build output is fine), judged
/// before it is read: a FIFO, a device or a directory is refused at once, the
/// component header before the rest, the size before a byte past the header.
fn read_candidate(file: &Path) -> Result<Vec<u8>, VerbError> {
    bounded::read_component(file, Links::Follow).map_err(|refusal| match refusal {
        Refusal::Io(e) => VerbError::Registry(format!("could not read `{}`: {e}", file.display())),
        refusal => VerbError::refused(
            format!("`{}` is not a usable verb: it {refusal}", file.display()),
            WHAT_A_VERB_IS,
        ),
    })
}

/// Compile a file, instantiate it in the sandbox and read its `info`.
fn inspect(runtime: &Runtime, file: &Path) -> Result<Candidate, VerbError> {
    let bytes = read_candidate(file)?;
    let label = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let not_a_verb = |e: VerbError| {
        VerbError::refused(
            format!(
                "`{}` is not a usable verb: {}",
                file.display(),
                plugin_reason(e)
            ),
            WHAT_A_VERB_IS,
        )
    };
    let sha256 = sha256_hex(&bytes);
    let component = runtime
        .compile(&label, &bytes, &sha256)
        .map_err(not_a_verb)?;
    let mut instance =
        Instance::new(&runtime.engine, &runtime.linker, &component, &label).map_err(not_a_verb)?;
    let info = instance.info().map_err(not_a_verb)?;
    check_info(file, &info)?;
    Ok(Candidate {
        info,
        bytes,
        sha256,
    })
}

/// The reason inside a plugin error, without the `verb `x`` prefix.
fn plugin_reason(e: VerbError) -> String {
    match e {
        VerbError::Plugin { message, .. } => message,
        other => other.to_string(),
    }
}

/// A verb name becomes a CLI word and a file name: keep it to `[a-z][a-z0-9-]*`.
fn check_info(file: &Path, info: &VerbInfo) -> Result<(), VerbError> {
    let name = &info.name;
    let well_formed = name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !well_formed {
        return Err(VerbError::Registry(format!(
            "`{}` names itself `{name}`; a verb name must be lowercase letters, digits and `-`",
            file.display()
        )));
    }
    if info.tool.trim().is_empty() {
        return Err(VerbError::Registry(format!(
            "verb `{name}` in `{}` names no tool",
            file.display()
        )));
    }
    if let Some(why) = oversized(info) {
        return Err(VerbError::Registry(format!(
            "verb `{name}` in `{}` declares {why}",
            file.display()
        )));
    }
    Ok(())
}

/// The longest usage text and summary kept in the index: far beyond any real
/// verb's, and small enough that the index stays under its read cap
/// ([`super::index::MAX_INDEX_BYTES`]) with a thousand verbs installed.
const MAX_USAGE_BYTES: usize = 64 << 10;
const MAX_SUMMARY_BYTES: usize = 1 << 10;

/// What in a verb's `info` is too long for the index, if anything.
fn oversized(info: &VerbInfo) -> Option<String> {
    if info.usage.len() > MAX_USAGE_BYTES {
        return Some(format!(
            "a usage text of {} bytes; at most {MAX_USAGE_BYTES} are kept",
            info.usage.len()
        ));
    }
    let longest_other = info.summary.len().max(info.tool.len());
    (longest_other > MAX_SUMMARY_BYTES).then(|| {
        format!(
            "a summary or tool name of {longest_other} bytes; at most {MAX_SUMMARY_BYTES} are kept"
        )
    })
}

/// Whether to install `candidate`: refuse clashes unless forced; skip a verb
/// that is already installed from identical bytes.
fn admit(index: &Index, candidate: &Candidate, force: bool) -> Result<bool, VerbError> {
    let name = &candidate.info.name;
    if HOST_VERBS.contains(&name.as_str()) && !force {
        return Err(VerbError::refused(
            format!("verb `{name}` would hide the host's own `mur devtools {name}`"),
            "pass `--force` to install it anyway",
        ));
    }
    match index.get(name) {
        Some(existing) if existing.sha256 == candidate.sha256 => {
            println!("verb `{name}` is already installed (unchanged)");
            Ok(false)
        }
        Some(_) if !force => Err(VerbError::refused(
            format!("verb `{name}` is already installed from a different file"),
            "pass `--force` to replace it",
        )),
        _ => Ok(true),
    }
}

/// Copy the component in atomically and record it in the index.
fn install(index: &mut Index, dirs: &VerbDirs, c: Candidate) -> Result<(), VerbError> {
    let file = format!("{}.wasm", c.info.name);
    let path = dirs.verbs.join(&file);
    write_atomic(&path, &c.bytes)?;
    let (size, mtime_ns) = stamp(&path).map_err(|e| io_error("read", &path, e))?;
    let replaced = index.get(&c.info.name).map(|e| e.sha256.clone());
    let VerbInfo {
        name,
        tool,
        summary,
        usage,
    } = c.info;
    let added_at = now_rfc3339();
    index.put(Entry {
        name: name.clone(),
        tool: tool.clone(),
        summary,
        usage,
        file,
        sha256: c.sha256,
        size,
        mtime_ns,
        added_at,
    });
    index.save()?;
    if let Some(old) = replaced {
        CodeCache::open(&dirs.cache).forget(&old);
    }
    println!("added verb `{name}` (tool `{tool}`)");
    Ok(())
}

/// Update an entry's declared tool, summary and usage after its file changed
/// (unless they are too long for the index: then the entry keeps the old ones).
pub(super) fn refresh_entry(index: &mut Index, verb: &str, info: VerbInfo) {
    if let Some(why) = oversized(&info) {
        tracing::debug!("not refreshing verb `{verb}` in the index: it declares {why}");
        return;
    }
    if let Some(entry) = index.get(verb).cloned() {
        index.put(Entry {
            tool: info.tool,
            summary: info.summary,
            usage: info.usage,
            ..entry
        });
        let _ = index.save();
    }
}

fn not_installed(name: &str) -> VerbError {
    VerbError::refused(
        format!("no verb named `{name}` is installed"),
        "`mur devtools verbs list` shows the installed verbs",
    )
}

fn print_json(value: &impl serde::Serialize) -> Result<(), VerbError> {
    let text = serde_json::to_string(value).map_err(|e| VerbError::internal(e.to_string()))?;
    println!("{text}");
    Ok(())
}

fn now_rfc3339() -> String {
    let now = time::OffsetDateTime::now_utc();
    now.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
