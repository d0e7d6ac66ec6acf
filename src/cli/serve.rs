//! `sow serve`: the playground's web server, on loopback unless told.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr};

use clap::Args;

use super::output::{err_line, fail_plain, Failed};

#[derive(Args, Debug)]
pub(super) struct Serve {
    /// The port to listen on (0: any free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on: loopback (127.0.0.1) unless given; any
    /// other lets other machines play and measure on this one.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
}

impl Serve {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        if !self.host.is_loopback() {
            err_line!(
                "warning: listening on {}: other machines can reach this server",
                self.host
            );
        }
        let listener = std::net::TcpListener::bind((self.host, self.port)).map_err(|e| {
            fail_plain(format!("cannot listen on {}:{}: {e}", self.host, self.port))
        })?;
        crate::serve::serve(listener, |address| {
            let _ = writeln!(out, "sow serve: http://{address}/ (Ctrl-C stops it)");
            let _ = out.flush();
        })
        .map_err(|e| fail_plain(format!("the server stopped: {e}")))
    }
}
