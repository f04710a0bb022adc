//! Hostile test verb: `parse` calls its host without end, each call cheap. Fuel
//! counts the guest's instructions, not the host's work on each call, so the host
//! must bound the calls themselves:
//!
//! - `--random`: `wasi:random/random`'s `get-random-u64`;
//! - `--random-bytes`: `get-random-bytes` of 1 MiB;
//! - `--clock`: the frozen monotonic clock's `now`;
//! - `--wall`: the frozen wall clock's `now`;
//! - `--env`: `wasi:cli/environment`'s `get-environment` (empty);
//! - `--drop`: `wasi:cli/stdin`'s `get-stdin`, its stream dropped at once.

/// The WASI 0.2 functions called, imported by their canonical-ABI names: the
/// component's world (std's) describes them, so they need no WIT of their own.
mod wasi {
    #[link(wasm_import_module = "wasi:random/random@0.2.6")]
    unsafe extern "C" {
        #[link_name = "get-random-u64"]
        pub fn get_random_u64() -> u64;
        /// Writes the list's pointer and length at `ret`.
        #[link_name = "get-random-bytes"]
        pub fn get_random_bytes(len: u64, ret: *mut [usize; 2]);
    }
    #[link(wasm_import_module = "wasi:clocks/monotonic-clock@0.2.6")]
    unsafe extern "C" {
        #[link_name = "now"]
        pub fn monotonic_now() -> u64;
    }
    #[link(wasm_import_module = "wasi:clocks/wall-clock@0.2.6")]
    unsafe extern "C" {
        /// Writes the seconds (u64) and nanoseconds (u32) at `ret`.
        #[link_name = "now"]
        pub fn wall_now(ret: *mut [u64; 2]);
    }
    #[link(wasm_import_module = "wasi:cli/environment@0.2.6")]
    unsafe extern "C" {
        /// Writes the list's pointer and length at `ret`.
        #[link_name = "get-environment"]
        pub fn get_environment(ret: *mut [usize; 2]);
    }
    #[link(wasm_import_module = "wasi:cli/stdin@0.2.6")]
    unsafe extern "C" {
        #[link_name = "get-stdin"]
        pub fn get_stdin() -> u32;
    }
    #[link(wasm_import_module = "wasi:io/streams@0.2.6")]
    unsafe extern "C" {
        #[link_name = "[resource-drop]input-stream"]
        pub fn drop_input_stream(handle: u32);
    }
}

/// One call of the host in the way `mode` names, or `None` for no known mode.
fn host_call(mode: &str) -> Option<fn()> {
    // The lists the host returns are leaked: a MiB of random bytes would soon
    // exhaust the verb's memory, so they go back to the allocator at once.
    fn free(list: [usize; 2], item: usize) {
        if list[1] > 0 {
            let layout = std::alloc::Layout::from_size_align(list[1] * item, 8).expect("layout");
            unsafe { std::alloc::dealloc(list[0] as *mut u8, layout) };
        }
    }
    Some(match mode {
        "--random" => || {
            std::hint::black_box(unsafe { wasi::get_random_u64() });
        },
        "--random-bytes" => || {
            let mut list = [0; 2];
            unsafe { wasi::get_random_bytes(1 << 20, &mut list) };
            free(list, 1);
        },
        "--clock" => || {
            std::hint::black_box(unsafe { wasi::monotonic_now() });
        },
        "--wall" => || {
            let mut now = [0; 2];
            unsafe { wasi::wall_now(&mut now) };
            std::hint::black_box(now);
        },
        "--env" => || {
            let mut list = [0; 2];
            unsafe { wasi::get_environment(&mut list) };
            free(list, 16);
        },
        "--drop" => || unsafe { wasi::drop_input_stream(wasi::get_stdin()) },
        _ => return None,
    })
}

const USAGE: &str =
    "usage: mur devtools pester --random|--random-bytes|--clock|--wall|--env|--drop";

mur_test_guest::test_guest! {
    Pester {
        name: "pester",
        summary: "Call the host without end (test guest)",
        usage: USAGE,
        fn parse(argv) {
            let Some(call) = host_call(argv.first().map_or("", String::as_str)) else {
                return Err(USAGE.into());
            };
            loop {
                call();
            }
        }
    }
}
