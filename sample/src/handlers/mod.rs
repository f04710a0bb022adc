//! Registers the 19 devtools tools of the sample app, one module per area; what they
//! share is in [`registration`].

mod inspect;
mod interact;
mod overview;
mod registration;
mod screenshot;
mod session;
mod todos;
mod wait;

use mur_server::ToolSet;

use crate::app::SampleApp;

/// Every tool of the sample app, bound to `app`.
pub fn register_all(tools: &mut ToolSet, app: &SampleApp) {
    inspect::register(tools, app);
    screenshot::register_tool(tools, app);
    interact::register(tools, app);
    wait::register_tool(tools, app);
    session::register(tools, app);
    todos::register_tools(tools, app);
    overview::register_tool(tools, app);
}
