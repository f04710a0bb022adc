//! The sample app's tests, one module per area, in one test binary: its tools driven in
//! process exactly as the server would call them (through [`app::App`]), and the real
//! `mur-sample` binary as a session (`process`).

mod actions;
mod app;
mod inspect;
mod process;
mod screenshot;
mod wait;
