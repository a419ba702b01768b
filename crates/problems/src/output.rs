//! Popeye-compatible text output and JSON output.

use crate::classify::{Classification, DualKind, SolutionKind, Verdict};
use crate::input::Problem;
use crate::{ProblemResult, SolveError};

/// mysl's classification after Popeye's text: per twin the summary, and where there is more than
/// one solution or a dual, each solution (`intended:`, `cook:`) with its duals indented below.
pub fn classification_text(result: &ProblemResult) -> String {
    let mut s = String::new();
    let twins = result.twins.len() > 1;
    for t in &result.twins {
        let c = &t.classification;
        let label = if twins {
            format!("classification {}", t.header.split(' ').next().unwrap_or(""))
        } else {
            "classification".to_string()
        };
        s.push_str(&format!("{label}: {}\n", c.summary));
        let counted_duals = c.solutions.iter().any(|x| x.duals.iter().any(|d| d.kind != DualKind::Threat));
        if c.solutions.len() < 2 && !counted_duals {
            continue;
        }
        for sol in &c.solutions {
            let kind = match (sol.kind, sol.short) {
                (SolutionKind::Cook, true) => "cook (short)",
                (k, _) => k.name(),
            };
            s.push_str(&format!("  {kind}: {}\n", t.lines[sol.line]));
            for d in sol.duals.iter().filter(|d| d.kind != DualKind::Threat) {
                let name = match d.kind {
                    DualKind::MoveOrder => "move-order dual",
                    DualKind::SecondPath => "second-path dual",
                    _ => "dual",
                };
                match d.after {
                    Some(a) => s.push_str(&format!("    {name} after {}: {}\n", t.lines[a].trim(), t.lines[d.line])),
                    None => s.push_str(&format!("    {name}: {}\n", t.lines[d.line])),
                }
            }
        }
    }
    if twins {
        s.push_str(&format!("classification of the problem: {}\n", result.summary()));
    }
    s
}

fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Sound => "sound",
        Verdict::Cooked => "cooked",
        Verdict::Unsound => "unsound",
        Verdict::Incomplete => "incomplete",
    }
}

/// A twin's classification as JSON: `{"summary","verdict","intended","cooks","duals","set_play":[i..],
/// "tries":[i..],"solutions":[{"line":i,"text","kind","short","lines":[i..],"duals":[{"line":i,"text",
/// "kind","after":i|null}]}]}`; `i` are indices into the twin's lines.
pub fn classification_json(c: &Classification, lines: &[String]) -> String {
    let idx = |v: &[usize]| v.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(",");
    let text = |i: usize| json_str(lines.get(i).map_or("", |l| l.as_str()));
    let solutions: Vec<String> = c
        .solutions
        .iter()
        .map(|sol| {
            let duals: Vec<String> = sol
                .duals
                .iter()
                .map(|d| {
                    format!(
                        "{{\"line\":{},\"text\":{},\"kind\":\"{}\",\"after\":{}}}",
                        d.line,
                        text(d.line),
                        d.kind.name(),
                        d.after.map_or("null".to_string(), |a| a.to_string())
                    )
                })
                .collect();
            format!(
                "{{\"line\":{},\"text\":{},\"kind\":\"{}\",\"short\":{},\"lines\":[{}],\"duals\":[{}]}}",
                sol.line,
                text(sol.line),
                sol.kind.name(),
                sol.short,
                idx(&sol.lines),
                duals.join(",")
            )
        })
        .collect();
    format!(
        "{{\"summary\":{},\"verdict\":\"{}\",\"intended\":{},\"cooks\":{},\"duals\":{},\"set_play\":[{}],\"tries\":[{}],\"solutions\":[{}]}}",
        json_str(&c.summary),
        verdict_name(c.verdict),
        c.intended,
        c.cooks,
        c.duals,
        idx(&c.set_play),
        idx(&c.tries),
        solutions.join(",")
    )
}

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
            s.push_str(&classification_text(r));
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
                        "{{\"header\":{},\"stipulation\":{},\"lines\":[{}],\"interrupted\":{},\"classification\":{}}}",
                        json_str(&t.header),
                        json_str(&t.stipulation.to_string()),
                        lines.join(","),
                        t.interrupted,
                        classification_json(&t.classification, &t.lines)
                    )
                })
                .collect();
            format!(
                "{{\"line\":{},\"twins\":[{}],\"summary\":{}}}",
                problem.line,
                twins.join(","),
                json_str(&r.summary())
            )
        }
    }
}
