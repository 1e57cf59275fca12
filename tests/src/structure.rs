//! The module graph of a folder of Rust sources, read from their text: who
//! imports whom, and the import cycles. Used to keep `bot/src/service` free
//! of cycles (its kernel below its commands) and the engine free of all
//! but parent/child ones.
//!
//! An edge goes from a file's module to the module a path in it names:
//! `use crate::…`, `use super::…`, `use self::…`, `use child::…` (a child
//! module of the file's own), and the same paths written inline
//! (`super::x::f()`, `crate::service::x::T`). A path is cut at the longest
//! prefix that is a module of the folder; paths outside the folder (`std`,
//! other crates, `crate::store` seen from `crate::service`) are no edges.
//! Declaring a child (`mod x;`) is no import, nor are visibility paths
//! (`pub(in crate::x)`), nor methods reached through `self` (an `impl`
//! block elsewhere); inline modules (`mod tests { … }`) belong to their file.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::path::{Path, PathBuf};

/// One import: `from` names something in `to`, at `file:line`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Import {
    /// The importing module, as a path from the crate root (`service::kernel::apply`).
    pub from: String,
    /// The imported module.
    pub to: String,
    /// The file the import is written in, relative to the folder.
    pub file: String,
    /// Its line (from 1).
    pub line: usize,
}

impl fmt::Display for Import {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} -> {} ({}:{})",
            self.from, self.to, self.file, self.line
        )
    }
}

/// The modules of a folder and the imports between them.
#[derive(Clone, Debug, Default)]
pub struct ModuleGraph {
    /// Every module with a file of its own, as a path from the crate root.
    pub modules: BTreeSet<String>,
    /// Every import between two different modules of the folder (the first
    /// one written, for each pair).
    pub imports: Vec<Import>,
}

/// A group of modules that reach each other through imports.
#[derive(Clone, Debug)]
pub struct Cycle {
    /// The modules of the group, by name.
    pub modules: Vec<String>,
    /// One closed walk of imports through the group, from its first module.
    pub walk: Vec<Import>,
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.walk.iter().map(|i| i.from.as_str()).collect();
        writeln!(
            f,
            "cycle among {} modules ({}): {} -> {}",
            self.modules.len(),
            self.modules.join(", "),
            names.join(" -> "),
            names[0]
        )?;
        for import in &self.walk {
            writeln!(f, "    {import}")?;
        }
        Ok(())
    }
}

/// How cycles are counted.
#[derive(Clone, Copy, Debug, Default)]
pub struct CycleRules {
    /// A child's imports from its own parent do not count (the engine's
    /// parent/child pairs: a parent module and the `impl` blocks of its
    /// children). Off, every import counts.
    pub allow_child_to_parent: bool,
}

impl ModuleGraph {
    /// Reads the `.rs` files under `dir`, whose module is `module` (the path
    /// from the crate root, `""` for the crate root itself: then `lib.rs` and
    /// `main.rs` are the root). Folders named `bin` are other crates, skipped.
    pub fn read(dir: &Path, module: &str) -> std::io::Result<ModuleGraph> {
        let base: Vec<String> = split_module(module);
        let mut files = Vec::new();
        collect_files(dir, &mut files)?;
        files.sort();
        let mut sources = Vec::new();
        for file in files {
            let relative = file.strip_prefix(dir).unwrap_or(&file).to_path_buf();
            let mut path = base.clone();
            path.extend(file_module(&relative));
            let text = std::fs::read_to_string(&file)?;
            sources.push((relative, path, text));
        }
        Ok(ModuleGraph::from_sources(
            &base,
            sources.iter().map(|(file, path, text)| {
                (
                    file.to_string_lossy().into_owned(),
                    path.clone(),
                    text.as_str(),
                )
            }),
        ))
    }

    /// The graph of `sources`: (file name, module path, text), under the
    /// module `base`.
    pub fn from_sources<'a>(
        base: &[String],
        sources: impl IntoIterator<Item = (String, Vec<String>, &'a str)>,
    ) -> ModuleGraph {
        let sources: Vec<(String, Vec<String>, &str)> = sources.into_iter().collect();
        let modules: BTreeSet<Vec<String>> =
            sources.iter().map(|(_, path, _)| path.clone()).collect();
        let mut named = Vec::new();
        let mut bindings: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
        for (file, path, text) in &sources {
            let (paths, bound) = paths_named(&tokens(text), path, &modules);
            named.push((file, path, paths));
            for (scope, name, target) in bound {
                bindings.entry((scope, name)).or_insert(target);
            }
        }
        let mut seen = BTreeSet::new();
        let mut imports = Vec::new();
        for (file, path, paths) in named {
            for (target, line) in paths {
                if !target.starts_with(base) {
                    continue;
                }
                let Some(to) = through_reexports(target, &modules, &bindings) else {
                    continue;
                };
                if &to == path || !seen.insert((path.clone(), to.clone())) {
                    continue;
                }
                imports.push(Import {
                    from: path.join("::"),
                    to: to.join("::"),
                    file: file.clone(),
                    line,
                });
            }
        }
        ModuleGraph {
            modules: modules.iter().map(|m| m.join("::")).collect(),
            imports,
        }
    }

    /// The imports of `module`.
    pub fn imports_of<'a>(&'a self, module: &'a str) -> impl Iterator<Item = &'a Import> + 'a {
        self.imports.iter().filter(move |i| i.from == module)
    }

    /// The import cycles: one per group of modules that reach each other
    /// (a strongly connected component of more than one module), each with
    /// a shortest closed walk of imports from the group's first module.
    pub fn cycles(&self, rules: CycleRules) -> Vec<Cycle> {
        let counted: Vec<&Import> = self
            .imports
            .iter()
            .filter(|i| !(rules.allow_child_to_parent && is_parent(&i.to, &i.from)))
            .collect();
        let mut next: BTreeMap<&str, Vec<&Import>> = BTreeMap::new();
        for import in &counted {
            next.entry(import.from.as_str()).or_default().push(import);
        }
        let mut cycles = Vec::new();
        for group in components(&self.modules, &next) {
            if group.len() < 2 {
                continue;
            }
            // The shortest way back from the group's first module to itself.
            let start = group[0];
            let members: BTreeSet<&str> = group.iter().copied().collect();
            let mut came_by: BTreeMap<&str, &Import> = BTreeMap::new();
            let mut queue = VecDeque::from([start]);
            let mut closing = None;
            'search: while let Some(at) = queue.pop_front() {
                for import in next.get(at).into_iter().flatten() {
                    let to = import.to.as_str();
                    if !members.contains(to) {
                        continue;
                    }
                    if to == start {
                        closing = Some(*import);
                        break 'search;
                    }
                    if !came_by.contains_key(to) {
                        came_by.insert(to, import);
                        queue.push_back(to);
                    }
                }
            }
            let Some(last) = closing else { continue };
            let mut walk = vec![last.clone()];
            let mut at = last.from.as_str();
            while at != start {
                let import = came_by[at];
                walk.push(import.clone());
                at = import.from.as_str();
            }
            walk.reverse();
            cycles.push(Cycle {
                modules: group.iter().map(|m| m.to_string()).collect(),
                walk,
            });
        }
        cycles
    }
}

/// A description of `cycles` for a failing test: each cycle's modules and imports.
pub fn describe(cycles: &[Cycle]) -> String {
    cycles.iter().map(Cycle::to_string).collect()
}

fn split_module(module: &str) -> Vec<String> {
    module
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Whether `parent` is the direct parent of `child`.
fn is_parent(parent: &str, child: &str) -> bool {
    let child = split_module(child);
    let parent = split_module(parent);
    child.len() == parent.len() + 1 && child.starts_with(&parent)
}

fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "bin") {
                collect_files(&path, files)?;
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    Ok(())
}

/// The module path of a file relative to its folder: `kernel/mod.rs` is
/// `kernel`, `kernel/apply.rs` is `kernel::apply`, `mod.rs`, `lib.rs` and
/// `main.rs` at the top are the folder's own module.
fn file_module(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    let top = parts.is_empty() && (stem == "lib" || stem == "main");
    if stem != "mod" && !top {
        parts.push(stem.to_owned());
    }
    parts
}

/// The module `path` names, following the names that `use` binds: a path
/// through a re-export (`crate::Game`, with `pub use game::Game;` in the
/// root) names the module the name comes from (`game`).
fn through_reexports(
    mut path: Vec<String>,
    modules: &BTreeSet<Vec<String>>,
    bindings: &BTreeMap<(Vec<String>, String), Vec<String>>,
) -> Option<Vec<String>> {
    // (A bound limit: `use` chains are short, and may not loop for ever.)
    for _ in 0..16 {
        let module = longest_module(&path, modules)?;
        let Some(name) = path.get(module.len()) else {
            return Some(module);
        };
        match bindings.get(&(module.clone(), name.clone())) {
            Some(target) if *target != path[..=module.len()] => {
                let mut next = target.clone();
                next.extend(path[module.len() + 1..].iter().cloned());
                path = next;
            }
            _ => return Some(module),
        }
    }
    longest_module(&path, modules)
}

/// The longest prefix of `path` that is a module.
fn longest_module(path: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|prefix| modules.contains(prefix))
}

/// A token of Rust source, with its line: comments, strings and character
/// literals are gone.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

fn tokens(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
            }
        } else if c == '"' || ((c == 'r' || c == 'b') && raw_string_start(&chars, i).is_some()) {
            // A string: plain (with escapes), byte or raw (`r#"…"#`).
            let (hashes, open) = if c == '"' {
                (None, i)
            } else {
                raw_string_start(&chars, i).expect("checked")
            };
            i = open + 1;
            while i < chars.len() {
                match (chars[i], hashes) {
                    ('\\', None) => i += 1,
                    ('"', None) => break,
                    ('"', Some(n)) if (1..=n).all(|k| at(i + k) == '#') => {
                        i += n;
                        break;
                    }
                    ('\n', _) => line += 1,
                    _ => {}
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F}'), or a lifetime ('a).
            if at(i + 1) == '\\' {
                // Past the backslash and the character it escapes.
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Token::Ident(chars[start..i].iter().collect()), line));
        } else if c == ':' && at(i + 1) == ':' {
            out.push((Token::Path, line));
            i += 2;
        } else {
            out.push((Token::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// Where a raw or byte string starting at `i` opens: its number of `#`s
/// (`None` for a byte string with escapes) and the index of its `"`.
fn raw_string_start(chars: &[char], i: usize) -> Option<(Option<usize>, usize)> {
    // An identifier that merely ends with `r` or `b` opens no string.
    if i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') {
        return None;
    }
    let mut j = i;
    if chars.get(j) == Some(&'b') {
        j += 1;
        if chars.get(j) == Some(&'"') {
            return Some((None, j));
        }
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (chars.get(j) == Some(&'"')).then_some((Some(hashes), j))
}

/// The absolute paths (from the crate root) that the file of module
/// `module` names, each with its line.
fn paths_named(
    tokens: &[(Token, usize)],
    module: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> (Vec<(Vec<String>, usize)>, Vec<Binding>) {
    let ident = |i: usize| match tokens.get(i) {
        Some((Token::Ident(name), _)) => Some(name.as_str()),
        _ => None,
    };
    let is = |i: usize, token: Token| tokens.get(i).map(|(t, _)| t) == Some(&token);
    let mut found = Vec::new();
    let mut bindings = Vec::new();
    // Inline modules open here: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let here: Vec<String> = module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(name, _)| name.clone()))
            .collect();
        match &tokens[i].0 {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            Token::Ident(word) if word == "mod" => {
                if let (Some(name), true) = (ident(i + 1), is(i + 2, Token::Punct('{'))) {
                    inline.push((name.to_owned(), depth + 1));
                }
            }
            Token::Ident(word) if word == "use" => {
                let mut trees = Vec::new();
                let end = use_tree(tokens, i + 1, Vec::new(), &mut trees);
                for (path, line, name) in trees {
                    if let Some(path) = resolve(&path, &here, module, modules, &bindings) {
                        if let Some(name) = name {
                            bindings.push((here.clone(), name, path.clone()));
                        }
                        found.push((path, line));
                    }
                }
                i = end;
                continue;
            }
            Token::Ident(_) => {
                let after_path = i > 0 && is(i - 1, Token::Path);
                let visibility = i > 0 && ident(i - 1) == Some("in");
                let in_macro = i > 0 && is(i - 1, Token::Punct('$'));
                let method = i > 0 && is(i - 1, Token::Punct('.'));
                if !after_path && !visibility && !in_macro && !method && is(i + 1, Token::Path) {
                    let mut path = Vec::new();
                    let mut j = i;
                    while let Some(name) = ident(j) {
                        path.push(name.to_owned());
                        if !is(j + 1, Token::Path) {
                            break;
                        }
                        j += 2;
                    }
                    if let Some(path) = resolve(&path, &here, module, modules, &bindings) {
                        found.push((path, tokens[i].1));
                    }
                    i = j + 1;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    (found, bindings)
}

/// Reads the use tree starting at `i` under `prefix`, pushing its full
/// paths; returns the index after the tree.
fn use_tree(
    tokens: &[(Token, usize)],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<UseLeaf>,
) -> usize {
    let line = tokens.get(i).map_or(0, |(_, line)| *line);
    if matches!(tokens.get(i), Some((Token::Path, _))) {
        i += 1;
    }
    loop {
        match tokens.get(i) {
            Some((Token::Ident(name), _)) if name == "as" => {
                let alias = match tokens.get(i + 1) {
                    Some((Token::Ident(alias), _)) if alias != "_" => Some(alias.clone()),
                    _ => None,
                };
                out.push((prefix, line, alias));
                return i + 2;
            }
            Some((Token::Ident(name), _)) => {
                if name != "self" || prefix.is_empty() {
                    prefix.push(name.clone());
                }
                i += 1;
                if matches!(tokens.get(i), Some((Token::Path, _))) {
                    i += 1;
                } else if matches!(tokens.get(i), Some((Token::Ident(name), _)) if name == "as") {
                    continue;
                } else {
                    let name = prefix.last().cloned();
                    out.push((prefix, line, name));
                    return i;
                }
            }
            Some((Token::Punct('*'), _)) => {
                out.push((prefix, line, None));
                return i + 1;
            }
            Some((Token::Punct('{'), _)) => {
                i += 1;
                loop {
                    match tokens.get(i) {
                        Some((Token::Punct('}'), _)) | None => return i + 1,
                        Some((Token::Punct(','), _)) => i += 1,
                        _ => i = use_tree(tokens, i, prefix.clone(), out),
                    }
                }
            }
            _ => {
                out.push((prefix, line, None));
                return i;
            }
        }
    }
}

/// A path a use tree imports, its line, and the name it binds (none for a
/// glob).
type UseLeaf = (Vec<String>, usize, Option<String>);

/// A name a `use` binds in a module (`pub use game::Game;` in the crate
/// root binds `Game` there): the module, the name, the absolute path named.
type Binding = (Vec<String>, String, Vec<String>);

/// The absolute form of `path` written in module `here` (inside the file
/// of module `file`), if it is one of the crate's own paths: `crate::…`,
/// `super::…`, `self::…`, a child module's name, or a name `bound` in
/// `here` by an earlier `use` (`use kernel::apply;` then `apply::Change`).
fn resolve(
    path: &[String],
    here: &[String],
    file: &[String],
    modules: &BTreeSet<Vec<String>>,
    bound: &[Binding],
) -> Option<Vec<String>> {
    let first = path.first()?;
    let mut absolute: Vec<String>;
    let rest: &[String];
    match first.as_str() {
        "crate" => {
            absolute = Vec::new();
            rest = &path[1..];
        }
        "self" => {
            absolute = here.to_vec();
            rest = &path[1..];
        }
        "super" => {
            absolute = here.to_vec();
            let ups = path.iter().take_while(|s| *s == "super").count();
            for _ in 0..ups {
                absolute.pop()?;
            }
            rest = &path[ups..];
        }
        _ => {
            if let Some((_, _, target)) = bound
                .iter()
                .rev()
                .find(|(scope, name, _)| scope == here && name == first)
            {
                absolute = target.clone();
                rest = &path[1..];
            } else {
                // A child module of the file's module, named as it is.
                let mut child = file.to_vec();
                child.push(first.clone());
                if here != file || !modules.contains(&child) {
                    return None;
                }
                absolute = file.to_vec();
                rest = path;
            }
        }
    }
    absolute.extend(rest.iter().cloned());
    Some(absolute)
}

/// The strongly connected components of the graph (Tarjan's algorithm),
/// each in the order of its modules' names.
fn components<'a>(
    modules: &'a BTreeSet<String>,
    next: &BTreeMap<&'a str, Vec<&'a Import>>,
) -> Vec<Vec<&'a str>> {
    struct State<'a> {
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(at: &'a str, next: &BTreeMap<&'a str, Vec<&'a Import>>, state: &mut State<'a>) {
        let n = state.index.len();
        state.index.insert(at, n);
        state.low.insert(at, n);
        state.stack.push(at);
        state.on_stack.insert(at);
        for import in next.get(at).into_iter().flatten() {
            let to = import.to.as_str();
            if !state.index.contains_key(to) {
                visit(to, next, state);
                let low = state.low[at].min(state.low[to]);
                state.low.insert(at, low);
            } else if state.on_stack.contains(to) {
                let low = state.low[at].min(state.index[to]);
                state.low.insert(at, low);
            }
        }
        if state.low[at] == state.index[at] {
            let mut group = Vec::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                group.push(member);
                if member == at {
                    break;
                }
            }
            group.sort_unstable();
            state.out.push(group);
        }
    }
    let mut state = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for module in modules {
        if !state.index.contains_key(module.as_str()) {
            visit(module, next, &mut state);
        }
    }
    state.out.sort();
    state.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(files: &[(&str, &str)]) -> ModuleGraph {
        let base = vec!["service".to_owned()];
        ModuleGraph::from_sources(
            &base,
            files.iter().map(|(file, text)| {
                let mut path = base.clone();
                path.extend(file_module(Path::new(file)));
                (file.to_string(), path, *text)
            }),
        )
    }

    fn edges(graph: &ModuleGraph) -> Vec<String> {
        graph
            .imports
            .iter()
            .map(|i| format!("{} -> {}", i.from, i.to))
            .collect()
    }

    #[test]
    fn every_form_of_path_is_an_import_and_others_are_not() {
        let g = graph(&[
            ("mod.rs", "mod a;\nmod b;\nuse a::X;\n"),
            (
                "a/mod.rs",
                "pub(crate) mod inner;\nuse super::{b::{self, Y}, Msg};\n\
                 pub(in crate::service) fn f() { crate::service::c::g(); }",
            ),
            ("a/inner.rs", "// use crate::service::c;\nfn f() { let s = \"super::b::x\"; super::super::c::h(); }"),
            ("b.rs", "use crate::store::Row;\nmod tests { use super::*; use super::super::a::inner::Z; }"),
            ("c.rs", "fn f(x: &Self) { self.apply(); kodex_engine::a::b(); }"),
        ]);
        assert_eq!(
            edges(&g),
            [
                "service -> service::a",
                "service::a -> service::b",
                "service::a -> service",
                "service::a -> service::c",
                "service::a::inner -> service::c",
                "service::b -> service::a::inner",
            ]
        );
        assert_eq!(g.imports[1].line, 2);
        assert_eq!(g.imports[4].file, "a/inner.rs");
    }

    #[test]
    fn cycles_are_found_and_named_child_imports_of_a_parent_may_be_allowed() {
        let g = graph(&[
            ("mod.rs", "mod a; mod b; mod c; use a::X;"),
            ("a.rs", "use super::b::Y;"),
            ("b.rs", "use super::c::Z;"),
            ("c.rs", "use super::a::X; use super::Root;"),
        ]);
        let cycles = g.cycles(CycleRules::default());
        assert_eq!(cycles.len(), 1, "{}", describe(&cycles));
        let text = describe(&cycles);
        assert!(text.starts_with("cycle among 4 modules (service, service::a, service::b, service::c): service -> service::a -> service::b -> service::c -> service\n"), "{text}");
        // The upward import `c -> service` allowed, the walk a -> b -> c -> a stays.
        let allowed = g.cycles(CycleRules {
            allow_child_to_parent: true,
        });
        assert_eq!(allowed.len(), 1);
        assert_eq!(allowed[0].walk.len(), 3, "{}", describe(&allowed));
        let acyclic = graph(&[("mod.rs", "mod a; use a::X;"), ("a.rs", "use super::Root;")]);
        assert_eq!(acyclic.cycles(CycleRules::default()).len(), 1);
        assert!(acyclic
            .cycles(CycleRules {
                allow_child_to_parent: true
            })
            .is_empty());
    }

    #[test]
    fn a_path_through_a_reexport_or_a_use_names_the_module_the_name_comes_from() {
        let g = graph(&[
            ("mod.rs", "mod kernel; mod commands; use kernel::apply; fn f() { apply::go(); }"),
            ("kernel/mod.rs", "pub mod msg; pub mod apply; pub use msg::{Msg as Message, Failure};"),
            ("kernel/msg.rs", "pub struct Msg;"),
            ("kernel/apply.rs", "use super::msg::Msg;"),
            ("commands/mod.rs", "use crate::service::kernel::{Message, Failure}; fn f(_: crate::service::kernel::apply::Msg) {}"),
        ]);
        let mut found = edges(&g);
        found.sort();
        assert_eq!(
            found,
            [
                "service -> service::kernel::apply",
                "service::commands -> service::kernel::msg",
                "service::kernel -> service::kernel::msg",
                "service::kernel::apply -> service::kernel::msg",
            ]
        );
    }

    #[test]
    fn strings_chars_and_lifetimes_do_not_confuse_the_reader() {
        let t = tokens("let a = r#\"x \"super::q\" y\"#; let c = '\"'; fn f<'a>(x: &'a str) { b'\\''; }\nsuper::z::w");
        let idents: Vec<String> = t
            .iter()
            .filter_map(|(t, _)| match t {
                Token::Ident(name) => Some(name.clone()),
                _ => None,
            })
            .collect();
        assert!(!idents.contains(&"q".to_owned()), "{idents:?}");
        assert!(
            idents.ends_with(&["super".to_owned(), "z".to_owned(), "w".to_owned()]),
            "{idents:?}"
        );
        assert_eq!(t.last().map(|(_, line)| *line), Some(2));
    }
}
