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
    /// Open the playground in the web browser once the server listens.
    #[arg(long)]
    open: bool,
    /// The most seconds a request's work may take (answered 503 past it).
    #[arg(long, value_name = "SECONDS", default_value_t = crate::serve::TIME_LIMIT.as_secs_f64(), value_parser = seconds)]
    time_limit: f64,
}

/// A time limit: a number of seconds, more than 0 and at most a day.
fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 86_400.0 => Ok(x),
        _ => Err(format!(
            "`{s}` is not a number of seconds from 0 (not included) to 86400"
        )),
    }
}

/// Opens `url` in the desktop's browser, saying so, or saying how to open
/// it where no browser could be started.
fn open_browser(url: &str) {
    let tried = if cfg!(target_os = "macos") {
        std::process::Command::new("open").arg(url).spawn()
    } else if cfg!(target_os = "windows") {
        std::process::Command::new("cmd")
            .args(["/c", "start", "", url])
            .spawn()
    } else {
        std::process::Command::new("xdg-open").arg(url).spawn()
    };
    if let Err(e) = tried {
        err_line!("sow serve: cannot start a browser ({e}); open {url} yourself");
    }
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
        let limit = std::time::Duration::from_secs_f64(self.time_limit);
        crate::serve::serve(listener, limit, |address| {
            let url = format!("http://{address}/");
            let _ = writeln!(out, "sow serve: {url} (Ctrl-C stops it)");
            let _ = out.flush();
            if self.open {
                open_browser(&url);
            }
        })
        .map_err(|e| fail_plain(format!("the server stopped: {e}")))
    }
}
