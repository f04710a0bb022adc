//! The verb runtime: a wasmtime engine that runs verbs (without a compiler),
//! built only when a verb actually runs, one that compiles on the cold path
//! only, and the path from an index entry to compiled code — through
//! the compile cache, noticing files changed behind the index's back. (Each
//! verb gets a linker of what it imports: [`super::sandbox::linker_for`].)

use std::path::Path;
use std::sync::OnceLock;

use mur_core::sha256_hex;
use wasmtime::component::Component;
use wasmtime::{Config, Engine};

use super::bounded::{Links, Refusal, Regular};
use super::cache::CodeCache;
use super::error::VerbError;
use super::index::{Entry, Index, stamp, stamp_of};
use super::instance::chain;
use super::name_section;
use super::sandbox::MEMORY_LIMIT_BYTES;
use super::timings::{self, Phase};

/// Engines and cache: everything that outlives one verb call.
pub struct Runtime {
    /// Maps and runs compiled verbs. It has no compiler: building Cranelift's
    /// settings cost every warm call ~60 µs for code it never used (docs/performance.md, "No
    /// compiler on a warm call").
    pub engine: Engine,
    /// Compiles, on the cold path only (a verb installed, changed, or its cache
    /// entry gone); what it compiles reaches `engine` as the image it serializes.
    pub(crate) compiler: OnceLock<Engine>,
    cache: CodeCache,
}

/// A verb's code, and whether its file had changed since the index saw it.
pub(crate) struct Loaded {
    pub component: Component,
    /// The file, when its bytes changed since the index saw them: not yet recorded
    /// ([`Changed`]).
    pub changed: Option<Changed>,
}

/// A verb's file whose bytes are not those the index recorded. The index takes them
/// only once they are seen to be a build of the same verb ([`Runtime::adopt`]): a
/// rebuild copied over the installed file is that verb, another verb's file is not.
pub struct Changed {
    /// What they declare beside the code is read from them
    /// ([`crate::manage::refresh_entry`]), not from the file again.
    pub bytes: Vec<u8>,
    pub sha256: String,
    /// The file's (size, mtime) as it was read.
    pub stamp: (u64, u128),
    /// The sha256 the index had, whose compiled code goes once the new bytes are taken.
    was: String,
}

impl Runtime {
    pub fn new(cache_dir: &Path) -> Result<Self, VerbError> {
        let mut config = config();
        config.enable_compiler(false);
        Ok(Self {
            engine: engine(&config)?,
            compiler: OnceLock::new(),
            cache: CodeCache::open(cache_dir),
        })
    }

    /// Compile `bytes` (a verb that `name` will be installed as) and cache the result.
    /// Bytes that are no valid component are the verb's fault, said so that `verbs add`'s
    /// "`FILE` is not a usable verb: …" reads on.
    pub fn compile(&self, name: &str, bytes: &[u8], sha256: &str) -> Result<Component, VerbError> {
        self.compiled(name, bytes, sha256).map_err(|e| match e {
            Uncompiled::Invalid(why) => {
                VerbError::plugin(name, format!("does not compile as a component: {why}"))
            }
            Uncompiled::Failed(e) => e,
        })
    }

    /// [`Runtime::compile`], telling bytes that are no valid component (the file's
    /// fault, whose fix depends on whose file it is) from mur's runtime failing.
    fn compiled(&self, name: &str, bytes: &[u8], sha256: &str) -> Result<Component, Uncompiled> {
        tracing::debug!("compiling verb `{name}`");
        let compiler = self.compiler()?;
        let compiled = timings::measure(Phase::Compile, || Component::new(compiler, bytes))
            .map_err(|e| Uncompiled::Invalid(chain(&e)))?;
        log_imports(compiler, name, &compiled);
        let image = compiled.serialize().map_err(|e| {
            VerbError::internal(format!("cannot serialize verb `{name}`: {}", chain(&e)))
        })?;
        // The entry as later calls will map it: its memory images come from the
        // file, not from copies of the freshly compiled code.
        let key = CodeCache::key(&self.engine, sha256);
        if let Some(component) = self.cache.store(&self.engine, &key, &image) {
            return Ok(component);
        }
        let loaded = super::cache::from_image(&self.engine, &image).map_err(|e| {
            VerbError::internal(format!("cannot load compiled verb `{name}`: {}", chain(&e)))
        })?;
        Ok(loaded)
    }

    /// The engine that compiles, built the first time a verb is compiled.
    fn compiler(&self) -> Result<&Engine, VerbError> {
        if let Some(compiler) = self.compiler.get() {
            return Ok(compiler);
        }
        let built = engine(&config())?;
        Ok(self.compiler.get_or_init(|| built))
    }

    /// The compiled code for an installed verb: from the cache when its entry is
    /// sound and its file unchanged, else compiled afresh (and the index updated),
    /// calling `compiling(name, bytes)` first when that takes tens of seconds (a Python or
    /// JavaScript verb, [`slow_to_compile`]), which the caller may want to
    /// say it is waiting for.
    pub fn load(
        &self,
        index: &mut Index,
        name: &str,
        compiling: &dyn Fn(&str, usize),
    ) -> Result<Loaded, VerbError> {
        let entry = index
            .get(name)
            .ok_or_else(|| VerbError::UnknownVerb(name.to_owned()))?;
        let path = index.file_path(entry);
        let on_disk = timings::measure(Phase::CacheLookup, || stamp(&path))
            .map_err(|e| unusable_file(name, &path, entry.source.as_deref(), Refusal::Io(e)))?;
        let unchanged = on_disk == (entry.size, entry.mtime_ns);
        if unchanged
            && let Some(component) = self
                .cache
                .load(&self.engine, &CodeCache::key(&self.engine, &entry.sha256))
        {
            tracing::debug!("loaded verb `{name}` from cache");
            return Ok(Loaded {
                component,
                changed: None,
            });
        }
        // The entry is copied only here: the cold path may put a new one.
        let entry = entry.clone();
        // Cold path: read the file and hash what is really there, so the cache
        // key always names the bytes being compiled. It is a file in mur's own
        // directory: a link there is refused, and so is anything not a regular
        // file, before a byte is read.
        let source = entry.source.as_deref();
        let file = Regular::open(&path, Links::Refuse)
            .map_err(|r| unusable_file(name, &path, source, r))?;
        let on_disk = stamp_of(file.metadata());
        let bytes = file
            .read_component()
            .map_err(|r| unusable_file(name, &path, source, r))?;
        let sha256 = sha256_hex(&bytes);
        let changed = sha256 != entry.sha256;
        if changed {
            // Not recorded yet: until it is seen to be this verb, the entry keeps
            // the bytes `verbs add` of the verb's own file repairs it with.
            tracing::debug!("verb `{name}` changed on disk since it was installed");
            refused_uncompiled(index, name, &path, &bytes, &sha256)?;
        } else if on_disk != (entry.size, entry.mtime_ns) {
            index.put(Entry {
                size: on_disk.0,
                mtime_ns: on_disk.1,
                ..entry.clone()
            });
            // Best effort: a read-only verb directory only costs a rehash next time.
            let _ = index.save();
        }
        // The bytes may be compiled already, though the stamp moved (a `touch`, a copy
        // of the same file, an index that could not be saved) or they changed (back to
        // an earlier build): their entry is looked up, unless it was just now.
        let looked_up = unchanged && !changed;
        let cached = (!looked_up)
            .then(|| {
                let key = CodeCache::key(&self.engine, &sha256);
                self.cache.load(&self.engine, &key)
            })
            .flatten();
        let component = match cached {
            Some(component) => {
                tracing::debug!("loaded verb `{name}` from cache");
                component
            }
            None => {
                if slow_to_compile(&bytes) {
                    compiling(name, bytes.len());
                }
                // This verb directory uses the cache (its verbs may all have been
                // installed by a `mur` that did not say so): the sweeps of the others
                // keep its code.
                if let Some(verbs) = path.parent() {
                    self.cache.record_user(verbs);
                }
                // Its file was compiled when it was added: bytes that no longer
                // compile are a fault in mur's own directory, as a missing file is.
                self.compiled(name, &bytes, &sha256).map_err(|e| match e {
                    Uncompiled::Invalid(why) => {
                        let why = format!("is not a valid component: {why}");
                        unusable_file(name, &path, source, why)
                    }
                    Uncompiled::Failed(e) => e,
                })?
            }
        };
        Ok(Loaded {
            component,
            changed: changed.then_some(Changed {
                bytes,
                sha256,
                stamp: on_disk,
                was: entry.sha256,
            }),
        })
    }

    /// Take a changed file as verb `name`, which it names itself (`its_name`, from its
    /// `info`): a rebuild of the verb copied over the installed file, the edit-build
    /// loop. The old bytes' compiled code goes; the caller records the new ones
    /// ([`crate::manage::refresh_entry`]). A file that names itself another verb (one
    /// verb's file copied over another's) is refused, the index left as it was: taken,
    /// it ran under this verb's name and the index renamed its tool, and `verbs add`
    /// of the right file then saw an "earlier build" instead of repairing it.
    ///
    /// The code that goes is only what no verb uses: not in this verb directory
    /// (another verb's file copied over this one's is that verb's code), nor in
    /// another sharing the cache (the same verb installed there, from the old
    /// bytes), as [`CodeCache::release`] judges it. It deleted both, and the other
    /// verb's next call compiled again (36 s for a Python verb).
    pub fn adopt(
        &self,
        index: &Index,
        name: &str,
        its_name: &str,
        changed: &Changed,
    ) -> Result<(), VerbError> {
        if its_name != name {
            // Its code is not kept, unless these are another installed verb's bytes.
            self.release(index, name, &changed.was, &changed.sha256);
            return Err(holds_another(index, name, its_name));
        }
        self.release(index, name, &changed.sha256, &changed.was);
        Ok(())
    }

    /// Release the compiled code of `dropped`, which verb `name` no longer uses: it
    /// uses `kept`. What the verb directory still uses is read from every entry in
    /// it: an index loaded for one verb ([`Index::load_only`]) holds no other. Where
    /// they cannot all be read, nothing is released.
    fn release(&self, index: &Index, name: &str, kept: &str, dropped: &str) {
        let Some(verbs) = index
            .get(name)
            .and_then(|entry| index.file_path(entry).parent().map(Path::to_owned))
        else {
            return;
        };
        let Some(mut here) = super::index::installed_sha256s(&verbs) else {
            tracing::debug!("compiled code stays: a verb's entry cannot be read");
            return;
        };
        // This verb's own entry names the bytes it had; another verb's may too.
        if let Some(own) = index.get(name)
            && let Some(at) = here.iter().position(|sha256| *sha256 == own.sha256)
        {
            here.remove(at);
        }
        here.push(kept.to_owned());
        self.cache.release(&verbs, &here, dropped);
    }
}

/// Why bytes gave no compiled code.
enum Uncompiled {
    /// They are no valid component: wasmtime's reason.
    Invalid(String),
    /// mur's runtime failed (its compiler, the cache's image).
    Failed(VerbError),
}

impl From<VerbError> for Uncompiled {
    fn from(e: VerbError) -> Self {
        Self::Failed(e)
    }
}

fn engine(config: &Config) -> Result<Engine, VerbError> {
    Engine::new(config)
        .map_err(|e| VerbError::internal(format!("cannot start the verb runtime: {}", chain(&e))))
}

/// Fuel on (the time bound); no native unwind information; no pooling
/// allocator (it costs 3–4 ms per process, more than a warm verb call); no
/// epoch interruption (it needs a timer thread).
pub(crate) fn config() -> Config {
    let mut config = Config::new();
    config.consume_fuel(true);
    // No `.eh_frame` for verbs' code: it serves only outside unwinders (a
    // debugger, the `backtrace` crate); wasmtime's own traps and backtraces walk
    // frame pointers, and a host panic under wasm is caught at the boundary.
    // Registering it cost every call (one `__register_frame` per function with
    // the static build's unwinder): deserialize 0.26 -> 0.21 ms for `state`.
    config.native_unwind_info(cfg!(windows));
    // Code for the baseline of this architecture rather than for the CPU's
    // detected features: with any feature flag on, wasmtime checks it against
    // the CPU at every load, and both that and Cranelift's own detection run
    // std's CPU probe, ~9 `cpuid`s that each exit to the hypervisor in a VM
    // (~80 µs of a ~2.5 ms call). Verbs parse argv and shape JSON: vector
    // units buy them nothing measurable, and a float rounding instruction
    // becomes a call.
    if let Err(e) = config.target(HOST_TRIPLE) {
        // Unreachable (the host's own triple parses); keep detection then.
        tracing::debug!("verb runtime keeps the CPU's features: {e}");
    }
    // Address space for each linear memory as a verb's bound needs it, not wasmtime's
    // 4 GiB and 64 MiB of guards: under an address-space limit below that (`ulimit -v`,
    // common in CI and containers) every verb failed to start (exit 7). The compiled
    // code then checks bounds itself, the guard sparing the checks of most offsets; a
    // memory grown past its reservation (a bound grown for a large result) moves.
    config.memory_reservation(MEMORY_RESERVATION);
    config.memory_guard_size(MEMORY_GUARD);
    config.memory_reservation_for_growth(MEMORY_GROWTH);
    config
}

/// Address space reserved for a verb's memory: all its memories together may hold
/// [`MEMORY_LIMIT_BYTES`] unless a result grows the bound.
const MEMORY_RESERVATION: u64 = MEMORY_LIMIT_BYTES as u64;

/// Unmapped bytes after (and before) a memory: a load or store whose static offset
/// is within it needs no bounds check of its own.
const MEMORY_GUARD: u64 = 2 << 20;

/// Room to grow into when a memory outgrows its reservation and moves (copied):
/// a verb shaping a result of tens of MiB moves once or twice.
const MEMORY_GROWTH: u64 = 256 << 20;

/// The triple `mur` is compiled for, from the build script: the same as
/// `target_lexicon::HOST`, without formatting it on every call.
const HOST_TRIPLE: &str = env!("MUR_VERBS_TARGET");

/// What a verb asks of its host, for `-v`: the sandbox links only WASI.
fn log_imports(engine: &Engine, name: &str, component: &Component) {
    let ty = component.component_type();
    let imports: Vec<&str> = ty.imports(engine).map(|(n, _)| n).collect();
    let listed = if imports.is_empty() {
        "nothing".to_owned()
    } else {
        imports.join(", ")
    };
    tracing::debug!("verb `{name}` imports {listed}");
}

/// The changed file of verb `name` (`bytes`, hashing to `sha256`), refused where what it
/// is can be known without a compile: nothing records a refusal, so a compile was paid
/// on every call (tens of seconds for a JavaScript verb), and left a cache entry where
/// the file is no verb. It holds another verb where its section names one, as `verbs
/// add` judges it, or where its bytes are another installed verb's (its file copied
/// over this one's: a 0.1 verb, or one built by other tools, has no section); it is no
/// verb where it does not export a verb's functions. Any other is compiled to be
/// judged: a component without the section names its verb only in its `info`, which
/// runs only compiled ([`Runtime::adopt`]).
fn refused_uncompiled(
    index: &Index,
    name: &str,
    path: &Path,
    bytes: &[u8],
    sha256: &str,
) -> Result<(), VerbError> {
    let said = name_section::read(bytes);
    if let Ok(Some(its_name)) = &said.name
        && its_name != name
    {
        return Err(holds_another(index, name, its_name));
    }
    if let Some(why) = said.no_verb() {
        return Err(unusable_file(name, path, source_of(index, name), why));
    }
    match index.other_with(name, sha256) {
        Ok(Some(other)) => Err(holds_another(index, name, &other)),
        Ok(None) => Ok(()),
        // Not known (another verb's entry is broken): compiled and judged by its
        // `info`, which this verb's call does not fail for; `adopt` keeps its code.
        Err(e) => {
            tracing::debug!("cannot tell whether another verb has `{name}`'s bytes: {e}");
            Ok(())
        }
    }
}

/// The installed file of verb `name` names itself verb `its_name` ([`Runtime::adopt`]).
fn holds_another(index: &Index, name: &str, its_name: &str) -> VerbError {
    let path = index.get(name).map(|entry| index.file_path(entry));
    unusable_file(
        name,
        path.as_deref().unwrap_or(Path::new(name)),
        source_of(index, name),
        format!("holds verb `{its_name}`"),
    )
}

/// The installed file of a verb is gone or is no verb: a fault in mur's own
/// verb directory (exit 7), with the two ways out. `why` is a [`Refusal`], or that
/// it holds another verb.
/// The file `verbs add` was given, `source`, names the reinstall as a command to paste
/// (`<ping.wasm>` pasted is a shell redirection); a placeholder where none is recorded.
fn unusable_file(
    name: &str,
    path: &Path,
    source: Option<&str>,
    why: impl std::fmt::Display,
) -> VerbError {
    let file = source.map_or_else(|| format!("<{name}.wasm>"), mur_core::shell_word);
    VerbError::internal_with_hint(
        format!(
            "verb `{name}` is installed but its file `{}` {why}",
            path.display()
        ),
        format!(
            "reinstall it with `mur devtools verbs add --force {file}`, or remove it with `mur devtools verbs remove {name}`"
        ),
    )
}

/// The file verb `name` was installed from, as its index entry records it.
fn source_of<'a>(index: &'a Index, name: &str) -> Option<&'a str> {
    index.get(name)?.source.as_deref()
}

/// A component this big (a Python or JavaScript verb carries its interpreter: 12–20 MB)
/// may take tens of seconds to compile, once; a Rust verb (a few hundred KB), a second.
/// `verbs add` refuses its clash uncompiled. Its size alone does not say the compile is
/// slow ([`slow_to_compile`]): a Rust debug build is as big and compiles in a second.
pub const SLOW_COMPILE_BYTES: usize = 4 << 20;

/// Whether compiling `bytes` takes tens of seconds, said before it so that the wait is
/// not taken for a hang: a big component that carries an interpreter, made by
/// componentize-py or componentize-js (by `producers::language`). By size alone, an
/// 8.7 MiB Rust debug build was said to take "tens of seconds" and took 1.4 s.
pub fn slow_to_compile(bytes: &[u8]) -> bool {
    bytes.len() >= SLOW_COMPILE_BYTES
        && matches!(
            crate::producers::language(bytes).as_deref(),
            Some("Python" | "JavaScript")
        )
}

#[cfg(test)]
mod tests {
    use crate::tests::{cache_entries, temp_dirs};
    use crate::{VerbDirs, VerbHost, derived::WITHIN, manage};

    /// Another installed verb's file copied over this one's, where another verb's
    /// entry file is broken (so which verb has these bytes cannot be read before the
    /// compile): refused as holding that verb, whose compiled code stays, so its next
    /// call loads it from the cache. Before, `adopt` deleted it.
    #[test]
    fn another_verbs_file_refused_after_its_compile_keeps_that_verbs_code() {
        let (_tmp, dirs) = temp_dirs();
        let guests = ["ping", "snoop"].map(mur_testkit::plugins::guest);
        manage::add(&dirs, &guests, false, &[]).expect("verbs add");
        std::fs::copy(&guests[0], dirs.verbs.join("snoop.wasm")).expect("copy over");
        let broken = dirs.verbs.join("index/zzz.json");
        std::fs::write(&broken, "not an entry").expect("broken entry");
        let cached = cache_entries(&dirs);
        assert_eq!(cached.len(), 2, "{cached:?}");

        let mut host = host_for(&dirs, "snoop");
        let refused = host.parse("snoop", &[], WITHIN).expect_err("holds ping");
        let path = dirs.verbs.join("snoop.wasm");
        assert_eq!(
            refused.to_string(),
            format!(
                "verb `snoop` is installed but its file `{}` holds verb `ping`",
                path.display()
            )
        );
        assert_eq!(cache_entries(&dirs), cached, "ping's compiled code went");
    }

    /// The host a call of `verb` opens: its own entry alone.
    fn host_for(dirs: &VerbDirs, verb: &str) -> VerbHost {
        let index = crate::index::Index::load_only(&dirs.verbs, verb).expect("entry");
        VerbHost::with_index(dirs.clone(), index)
    }

    /// The build script's triple is the one wasmtime would have been given
    /// before: the host's, as target-lexicon formats it.
    #[test]
    fn the_constant_triple_is_the_host_s() {
        assert_eq!(super::HOST_TRIPLE, target_lexicon::HOST.to_string());
    }
}
