//! The crate's layout, checked: which module may import which (every
//! import points down the floors drawn in `src/lib.rs`'s "Inside the
//! crate"), no import circle, types named by their defining module and
//! not through the root's re-exports, and `unsafe` allowed only in modules
//! named `raw`.
//!
//! It reads the sources (`src/`) as text: every `crate::name` outside a
//! comment is an import of the top-level module `name`. (Not under Miri,
//! whose isolation refuses to read files; the layout is the same there.)
#![cfg(not(miri))]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The floors, bottom up: a module may import the modules on lower floors,
/// nothing on its own floor or above.
const FLOORS: &[&[&str]] = &[
    &["error", "key_data", "settings", "sync"],
    &["auto_remove", "raw"],
    &["cursor", "vec_api", "producer"],
    &["collection", "buffered", "keyed"],
    &["layers", "parallel"],
    &[
        "builder",
        "serde_impls",
        "arbitrary_impls",
        "quickcheck_impls",
        "proptest",
        "loom_tests",
    ],
    // Re-exports only.
    &["prelude"],
];

/// The root's re-exports that are not types: the exported macros, which
/// live at the root whatever module defines them, and `__private`, the
/// other crates they name from a user's crate (serde for key types).
const ROOT_MACROS: &[&str] = &[
    "remove_when",
    "__remove_when_par",
    "layer_keys",
    "__key_serde",
    "__private",
];

fn sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
    out.sort();
    out
}

/// The top-level module a file belongs to (`lib` for `src/lib.rs`).
fn module_of(path: &Path) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rel = path.strip_prefix(&src).expect("a file under src/");
    let first = rel.components().next().expect("a file name");
    first
        .as_os_str()
        .to_str()
        .expect("UTF-8 file names")
        .trim_end_matches(".rs")
        .to_owned()
}

/// The code of a file without its comments (line comments, doc comments
/// included, and block comments).
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if rest.starts_with("//") {
            rest = rest.find('\n').map_or("", |i| &rest[i..]);
        } else if rest.starts_with("/*") {
            rest = rest.find("*/").map_or("", |i| &rest[i + 2..]);
        } else if rest.starts_with('"') {
            // Skip string literals (a "//" inside one is not a comment).
            let mut end = 1;
            let bytes = rest.as_bytes();
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            rest = rest.get(end + 1..).unwrap_or("");
            out.push_str("\"\"");
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first segments of every `crate::` path in `code` (the names right
/// after `crate::`, or every first name in a `crate::{...}` group).
fn crate_names(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        // Not a longer identifier ending in `crate` (`$crate` is fine).
        if at > 0 {
            let before = code[..at].chars().next_back().expect("not empty");
            if before.is_alphanumeric() || before == '_' {
                continue;
            }
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_alphanumeric() || c == '_') => {
                        names.push(ident_at(&group[i..]).to_owned());
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.push(ident_at(rest).to_owned());
        }
    }
    names
}

struct Crate {
    /// Module -> the modules it imports, with a file that does.
    imports: BTreeMap<String, BTreeMap<String, PathBuf>>,
    /// `crate::Name` uses of a root re-export: (file, name).
    root_uses: Vec<(PathBuf, String)>,
    modules: BTreeSet<String>,
}

fn read_crate() -> Crate {
    let files = sources();
    let modules: BTreeSet<String> = files.iter().map(|p| module_of(p)).collect();
    let mut imports: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    let mut root_uses = Vec::new();
    for path in &files {
        let from = module_of(path);
        let code = code_of(&fs::read_to_string(path).expect("a readable source"));
        for name in crate_names(&code) {
            if modules.contains(&name) {
                if name != from {
                    imports
                        .entry(from.clone())
                        .or_default()
                        .entry(name)
                        .or_insert_with(|| path.clone());
                }
            } else if !ROOT_MACROS.contains(&name.as_str()) && from != "lib" {
                root_uses.push((path.clone(), name));
            }
        }
    }
    Crate {
        imports,
        root_uses,
        modules,
    }
}

fn floor_of(module: &str) -> Option<usize> {
    FLOORS.iter().position(|f| f.contains(&module))
}

#[test]
fn every_module_has_a_floor() {
    let c = read_crate();
    let missing: Vec<_> = c
        .modules
        .iter()
        .filter(|m| *m != "lib" && floor_of(m).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "modules without a floor in tests/architecture.rs and src/lib.rs: {missing:?}"
    );
}

#[test]
fn every_import_points_down_the_floors() {
    let c = read_crate();
    let mut wrong = Vec::new();
    for (from, tos) in &c.imports {
        if from == "lib" {
            continue;
        }
        let Some(f) = floor_of(from) else { continue };
        for (to, file) in tos {
            let Some(t) = floor_of(to) else { continue };
            if t >= f {
                wrong.push(format!(
                    "{from} (floor {f}) imports {to} (floor {t}) in {}",
                    file.display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that do not point down:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_module_imports_itself_through_others() {
    let c = read_crate();
    // Depth-first search for a back edge; reports the circle.
    fn visit(
        m: &str,
        c: &Crate,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut circle = path[i..].to_vec();
            circle.push(m.to_owned());
            return Some(circle);
        }
        if !done.insert(m.to_owned()) {
            return None;
        }
        path.push(m.to_owned());
        for to in c.imports.get(m).into_iter().flat_map(|t| t.keys()) {
            if let Some(circle) = visit(to, c, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for m in c.modules.iter().filter(|m| *m != "lib") {
        if let Some(circle) = visit(m, &c, &mut Vec::new(), &mut done) {
            panic!("an import circle: {}", circle.join(" -> "));
        }
    }
}

#[test]
fn types_are_named_by_their_defining_module() {
    let c = read_crate();
    let uses: Vec<_> = c
        .root_uses
        .iter()
        .map(|(file, name)| format!("crate::{name} in {}", file.display()))
        .collect();
    assert!(
        uses.is_empty(),
        "root re-exports used inside the crate (name the defining module):\n{}",
        uses.join("\n")
    );
}

#[test]
fn unsafe_code_is_allowed_only_in_modules_named_raw() {
    for path in sources() {
        let text = fs::read_to_string(&path).expect("a readable source");
        let code = code_of(&text);
        let lines: Vec<&str> = code.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.contains("allow(unsafe_code)") {
                let next = lines[i + 1..]
                    .iter()
                    .map(|l| l.trim())
                    .find(|l| !l.is_empty() && !l.starts_with("#["))
                    .unwrap_or("");
                assert!(
                    next == "mod raw;",
                    "{}: `allow(unsafe_code)` on `{next}`, not on a `mod raw;`",
                    path.display()
                );
            }
        }
    }
}

/// The checks above can fail: each one on a made-up source.
#[test]
fn the_checks_see_what_they_look_for() {
    let code = code_of("use crate::{raw::Core, cursor::{Cursor, Entry}};\n// crate::layers\nlet s = \"crate::parallel\"; crate::Builder::new(); $crate::auto_remove::X");
    assert_eq!(
        crate_names(&code),
        ["raw", "cursor", "Builder", "auto_remove"],
        "{code}"
    );
    assert_eq!(floor_of("raw"), Some(1));
    assert!(floor_of("collection") > floor_of("cursor"));
}
