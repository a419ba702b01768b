//! Popeye-compatible text output and JSON output.

use crate::input::Problem;
use crate::{ProblemResult, SolveError};

/// Popeye-style text for one problem: the stipulation line, twin headers and solution lines,
/// then `solution finished.` (or a note that the solve was interrupted).
pub fn text(problem: &Problem, result: &Result<ProblemResult, SolveError>) -> String {
    let mut s = String::new();
    for a in &problem.authors {
        s.push_str(a);
        s.push('\n');
    }
    for o in &problem.origin {
        s.push_str(o);
        s.push('\n');
    }
    for t in &problem.titles {
        s.push_str(t);
        s.push('\n');
    }
    match result {
        Err(e) => {
            s.push_str(&format!("{e}\n"));
        }
        Ok(r) => {
            if let Some(st) = r.twins.first().map(|t| t.stipulation) {
                s.push_str(&format!("{st}\n\n"));
            }
            let mut interrupted = false;
            for t in &r.twins {
                if !t.header.is_empty() {
                    s.push_str(&t.header);
                    s.push('\n');
                }
                for l in &t.lines {
                    s.push_str(l);
                    s.push('\n');
                }
                interrupted |= t.interrupted;
            }
            s.push_str(if interrupted {
                "solving interrupted (time limit or stop): solutions may be missing\n"
            } else {
                "solution finished.\n"
            });
        }
    }
    s
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// One JSON object for a problem: `{"line":..,"stipulation":..,"twins":[{"header":..,"lines":[..],"interrupted":..}]}`
/// or `{"line":..,"error":..}`.
pub fn json(problem: &Problem, result: &Result<ProblemResult, SolveError>) -> String {
    match result {
        Err(e) => {
            let kind = match e {
                SolveError::Unsupported(_) => "unsupported",
                SolveError::Invalid(_) => "invalid",
            };
            format!("{{\"line\":{},\"error\":{},\"kind\":\"{kind}\"}}", problem.line, json_str(&e.to_string()))
        }
        Ok(r) => {
            let twins: Vec<String> = r
                .twins
                .iter()
                .map(|t| {
                    let lines: Vec<String> = t.lines.iter().map(|l| json_str(l)).collect();
                    format!(
                        "{{\"header\":{},\"stipulation\":{},\"lines\":[{}],\"interrupted\":{}}}",
                        json_str(&t.header),
                        json_str(&t.stipulation.to_string()),
                        lines.join(","),
                        t.interrupted
                    )
                })
                .collect();
            format!("{{\"line\":{},\"twins\":[{}]}}", problem.line, twins.join(","))
        }
    }
}
