//! Localized texts: Fluent bundles for English and Russian, compiled in from
//! `config/locales/*.ftl`.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// A language the bot speaks.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Lang {
    /// English, the fallback.
    #[default]
    En,
    /// Russian.
    Ru,
}

impl Lang {
    /// Every language, in the order `/lang` lists them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    /// Reads a language code or platform locale (`ru`, `ru-RU`, `en_US`, `RU`).
    pub fn parse(text: &str) -> Option<Lang> {
        let lower = text.trim().to_lowercase();
        let primary = lower.split(['-', '_']).next().unwrap_or("");
        match primary {
            "en" | "english" | "английский" => Some(Lang::En),
            "ru" | "russian" | "русский" => Some(Lang::Ru),
            _ => None,
        }
    }

    /// The language's name in itself ("English", "Русский"), as a choice
    /// of languages shows it.
    pub fn own_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ru => "Русский",
        }
    }

    /// The code stored and passed to the engine (`en`, `ru`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }
}

/// Arguments for a message: name and value.
pub type Args<'a> = [(&'a str, FluentValue<'a>)];

/// Builds message arguments: `args!["name" => value, …]`.
#[macro_export]
macro_rules! args {
    ($($name:literal => $value:expr),* $(,)?) => {
        &[$(($name, ::fluent_bundle::FluentValue::from($value))),*]
    };
}

/// The message catalogues.
pub struct I18n {
    en: FluentBundle<FluentResource>,
    ru: FluentBundle<FluentResource>,
}

impl std::fmt::Debug for I18n {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("I18n")
    }
}

const EN: &str = include_str!("../../config/locales/en.ftl");
const RU: &str = include_str!("../../config/locales/ru.ftl");

impl Default for I18n {
    fn default() -> Self {
        I18n::new()
    }
}

impl I18n {
    /// The compiled-in catalogues. A syntax error in a catalogue drops only
    /// the broken messages (a unit test keeps them clean).
    pub fn new() -> I18n {
        I18n {
            en: bundle(Lang::En, EN),
            ru: bundle(Lang::Ru, RU),
        }
    }

    /// The message `key` in `lang`, falling back to English, then to the key itself.
    pub fn text(&self, lang: Lang, key: &str, args: &Args<'_>) -> String {
        let args: FluentArgs = args.iter().cloned().collect();
        let bundles = match lang {
            Lang::En => [&self.en, &self.en],
            Lang::Ru => [&self.ru, &self.en],
        };
        for bundle in bundles {
            if let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) {
                let mut errors = Vec::new();
                let text = bundle.format_pattern(pattern, Some(&args), &mut errors);
                if !errors.is_empty() {
                    tracing::warn!(key, lang = lang.code(), ?errors, "message formatting error");
                }
                return text.into_owned();
            }
        }
        tracing::warn!(key, "missing message");
        key.to_owned()
    }
}

/// The compiled-in catalogues, loaded once.
pub fn catalogue() -> &'static I18n {
    static CATALOGUE: std::sync::OnceLock<I18n> = std::sync::OnceLock::new();
    CATALOGUE.get_or_init(I18n::new)
}

impl I18n {
    /// Like [`I18n::text`], with text arguments given as owned pairs.
    pub fn format(&self, lang: Lang, key: &str, args: &[(&'static str, String)]) -> String {
        let args: Vec<(&str, FluentValue<'_>)> = args
            .iter()
            .map(|(name, value)| (*name, FluentValue::from(value.as_str())))
            .collect();
        self.text(lang, key, &args)
    }
}

fn bundle(lang: Lang, source: &str) -> FluentBundle<FluentResource> {
    let resource =
        FluentResource::try_new(source.to_owned()).unwrap_or_else(|(partial, errors)| {
            tracing::error!(lang = lang.code(), ?errors, "locale file has errors");
            partial
        });
    let id = lang
        .code()
        .parse()
        .unwrap_or_else(|_| unic_langid::LanguageIdentifier::default());
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // Isolation marks would show up as stray characters in consoles and logs.
    bundle.set_use_isolating(false);
    if let Err(errors) = bundle.add_resource(resource) {
        tracing::error!(lang = lang.code(), ?errors, "duplicate messages");
    }
    bundle
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(source: &str) -> Vec<String> {
        source
            .lines()
            .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
            .filter_map(|l| l.split_once(" =").map(|(k, _)| k.trim().to_owned()))
            .collect()
    }

    #[test]
    fn catalogues_parse_and_have_the_same_keys() {
        FluentResource::try_new(EN.to_owned()).expect("en.ftl parses");
        FluentResource::try_new(RU.to_owned()).expect("ru.ftl parses");
        let (mut en, mut ru) = (keys(EN), keys(RU));
        en.sort();
        ru.sort();
        assert!(en.len() > 40);
        assert_eq!(en, ru);
    }

    /// Russian verbs in the past tense agree with the subject's gender,
    /// which the bot does not know: no message that names a person uses one
    /// ("alice сыграл"); present tense and impersonal forms are neutral.
    #[test]
    fn russian_texts_about_people_are_gender_neutral() {
        const PEOPLE: [&str; 8] = [
            "$player",
            "$players",
            "$loser",
            "$winner",
            "$challenger",
            "$opponent",
            "$white",
            "$black",
        ];
        // Impersonal past forms agreeing with a thing ("партия началась").
        const THINGS: [&str; 1] = ["началась"];
        let gendered = |word: &str| {
            let word = word.trim_end_matches("ся").trim_end_matches("сь");
            let stem_vowel = |tail: &str| {
                word.strip_suffix(tail)
                    .and_then(|stem| stem.chars().last())
                    .is_some_and(|c| "аяиыеёу".contains(c))
            };
            word.chars().count() > 3 && (stem_vowel("л") || stem_vowel("ла"))
        };
        let mut found = Vec::new();
        for line in RU.lines().filter(|l| PEOPLE.iter().any(|p| l.contains(p))) {
            for word in line
                .split(|c: char| !c.is_alphabetic())
                .map(str::to_lowercase)
            {
                if gendered(&word) && !THINGS.contains(&word.as_str()) {
                    found.push(format!("{word}: {line}"));
                }
            }
        }
        assert!(found.is_empty(), "{found:#?}");
        // The test sees the past tense it looks for.
        assert!(gendered("сыграл") && gendered("сдался") && gendered("поставила"));
        assert!(!gendered("ставит") && !gendered("сдаётся") && !gendered("стол"));
    }

    /// A plural select of a catalogue: the message, its selector, its keys.
    struct Plural {
        key: String,
        selector: String,
        keys: Vec<String>,
        variables: Vec<String>,
    }

    /// Every message of `source` that selects on a variable, and what a
    /// count variable written before a word outside such a select looks
    /// like ("{ $max } партий": a plural written by hand).
    fn plurals(source: &str) -> (Vec<Plural>, Vec<String>) {
        use fluent_syntax::ast::{
            Entry, Expression, InlineExpression, Pattern, PatternElement, VariantKey,
        };
        fn walk(
            pattern: &Pattern<&str>,
            inside: Option<&str>,
            key: &str,
            plurals: &mut Vec<Plural>,
            variables: &mut Vec<String>,
            by_hand: &mut Vec<(String, String, String)>,
        ) {
            let mut last: Option<&str> = None;
            for element in &pattern.elements {
                match element {
                    PatternElement::TextElement { value } => {
                        if let Some(variable) = last.take() {
                            let word: String = value
                                .trim_start()
                                .chars()
                                .take_while(|c| c.is_alphabetic())
                                .collect();
                            if value.starts_with(' ')
                                && word.chars().next().is_some_and(|c| {
                                    ('а'..='я').contains(&c.to_lowercase().next().unwrap_or(c))
                                        || c == 'ё'
                                })
                                && inside != Some(variable)
                            {
                                by_hand.push((key.to_owned(), variable.to_owned(), word));
                            }
                        }
                    }
                    PatternElement::Placeable { expression } => {
                        last = None;
                        match expression {
                            Expression::Inline(InlineExpression::VariableReference { id }) => {
                                variables.push(id.name.to_owned());
                                last = Some(id.name);
                            }
                            Expression::Select { selector, variants } => {
                                let InlineExpression::VariableReference { id } = selector else {
                                    continue;
                                };
                                // Only a select on a count's plural category
                                // (not on a piece letter or a colour).
                                let plural = variants.iter().any(|v| {
                                    matches!(&v.key, VariantKey::Identifier { name } if ["one", "few"].contains(name))
                                });
                                if !plural {
                                    for variant in variants {
                                        walk(
                                            &variant.value,
                                            inside,
                                            key,
                                            plurals,
                                            variables,
                                            by_hand,
                                        );
                                    }
                                    continue;
                                }
                                variables.push(id.name.to_owned());
                                plurals.push(Plural {
                                    key: key.to_owned(),
                                    selector: id.name.to_owned(),
                                    keys: variants
                                        .iter()
                                        .map(|v| match &v.key {
                                            VariantKey::Identifier { name } => name.to_string(),
                                            VariantKey::NumberLiteral { value } => {
                                                value.to_string()
                                            }
                                        })
                                        .collect(),
                                    variables: Vec::new(),
                                });
                                for variant in variants {
                                    walk(
                                        &variant.value,
                                        Some(id.name),
                                        key,
                                        plurals,
                                        variables,
                                        by_hand,
                                    );
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        let resource = FluentResource::try_new(source.to_owned()).expect("parses");
        let mut plurals = Vec::new();
        let mut by_hand = Vec::new();
        for entry in resource.entries() {
            let Entry::Message(message) = entry else {
                continue;
            };
            let Some(pattern) = &message.value else {
                continue;
            };
            let mut variables = Vec::new();
            let first = plurals.len();
            walk(
                pattern,
                None,
                message.id.name,
                &mut plurals,
                &mut variables,
                &mut by_hand,
            );
            for plural in &mut plurals[first..] {
                plural.variables = variables.clone();
            }
        }
        // A count is a variable some message selects a plural on.
        let counts: Vec<&str> = plurals.iter().map(|p| p.selector.as_str()).collect();
        let by_hand = by_hand
            .into_iter()
            .filter(|(_, variable, _)| {
                counts.contains(&variable.as_str())
                    || ["max", "made", "count"].contains(&variable.as_str())
            })
            .map(|(key, variable, word)| format!("{key}: {{ ${variable} }} {word}"))
            .collect();
        (plurals, by_hand)
    }

    /// Renders a plural message with its count `n` (a number, as the
    /// service passes it) and every other argument a placeholder; the count
    /// is then written `#`.
    fn render(i18n: &I18n, lang: Lang, plural: &Plural, n: i64) -> String {
        let args: Vec<(&str, FluentValue<'_>)> = plural
            .variables
            .iter()
            .map(|name| {
                let value = if *name == plural.selector {
                    FluentValue::from(n)
                } else {
                    FluentValue::from("x")
                };
                (name.as_str(), value)
            })
            .collect();
        i18n.text(lang, &plural.key, &args)
            .replace(&n.to_string(), "#")
    }

    /// Russian counts take three forms (1, 21: one; 2–4, 22: few; 5–20,
    /// 25: many): every plural is written with all three through Fluent's
    /// selectors, none by hand, and each renders the form of its number.
    #[test]
    fn russian_plurals_are_selected_for_1_2_5_and_21() {
        let (plurals, by_hand) = plurals(RU);
        assert!(by_hand.is_empty(), "plurals written by hand: {by_hand:#?}");
        assert!(plurals.len() >= 10, "{}", plurals.len());
        // Forms of the nouns counted: (one, few, many).
        const NOUNS: [(&str, &str, &str); 10] = [
            ("партия", "партии", "партий"),
            ("партию", "партии", "партий"),
            ("минуту", "минуты", "минут"),
            ("день", "дня", "дней"),
            ("ход", "хода", "ходов"),
            ("вызов", "вызова", "вызовов"),
            ("страница", "страницы", "страниц"),
            ("попытка", "попытки", "попыток"),
            ("линия", "линии", "линий"),
            ("пешку", "пешки", "пешек"),
        ];
        let i18n = I18n::new();
        let mut checked = 0;
        for plural in &plurals {
            let name = format!("{} (${})", plural.key, plural.selector);
            for form in ["one", "few"] {
                assert!(plural.keys.iter().any(|k| k == form), "{name}: no [{form}]");
            }
            let forms = |numbers: &[i64]| -> Vec<String> {
                numbers
                    .iter()
                    .map(|&n| render(&i18n, Lang::Ru, plural, n))
                    .collect()
            };
            let (one, few, many) = (
                forms(&[21, 31, 101]),
                forms(&[2, 3, 4, 22]),
                forms(&[5, 11, 12, 25, 0]),
            );
            for group in [&one, &few, &many] {
                assert!(group.iter().all(|t| *t == group[0]), "{name}: {group:#?}");
            }
            if !plural.keys.iter().any(|k| k == "1") {
                assert_eq!(render(&i18n, Lang::Ru, plural, 1), one[0], "{name}");
            }
            // The words after the count agree with it.
            for (text, column) in [(&one[0], 0), (&few[0], 1), (&many[0], 2)] {
                let Some((_, after)) = text.split_once("# ") else {
                    continue;
                };
                // The counted noun is the first one after the count
                // (an adjective may stand between them).
                let noun = after
                    .split(|c: char| !c.is_alphabetic())
                    .take(3)
                    .find_map(|word| {
                        NOUNS
                            .iter()
                            .map(|f| [f.0, f.1, f.2])
                            .find(|all| all.contains(&word))
                            .map(|all| (word, all))
                    });
                if let Some((word, all)) = noun {
                    checked += 1;
                    assert!(
                        all[column] == word,
                        "{name}: «{word}» after a count of form {column}: {text}"
                    );
                }
            }
        }
        assert!(checked >= 10, "{checked}");
    }

    /// English counts take two forms, selected the same way.
    #[test]
    fn english_plurals_are_selected_for_1_and_the_rest() {
        let (plurals, by_hand) = plurals(EN);
        let by_hand: Vec<_> = by_hand
            .into_iter()
            .filter(|p| p.contains("$max") || p.contains("$made"))
            .collect();
        assert!(by_hand.is_empty(), "{by_hand:#?}");
        let i18n = I18n::new();
        for plural in &plurals {
            let rest: Vec<String> = [2, 5, 21]
                .iter()
                .map(|&n| render(&i18n, Lang::En, plural, n))
                .collect();
            assert!(
                rest.iter().all(|t| *t == rest[0]),
                "{}: {rest:#?}",
                plural.key
            );
            assert_ne!(
                render(&i18n, Lang::En, plural, 1),
                rest[0],
                "{}",
                plural.key
            );
        }
    }

    #[test]
    fn languages_and_fallbacks() {
        let i18n = I18n::new();
        assert_eq!(Lang::parse("ru-RU"), Some(Lang::Ru));
        assert_eq!(Lang::parse("en_GB"), Some(Lang::En));
        assert_eq!(Lang::parse("de"), None);
        let en = i18n.text(Lang::En, "lang-set", args![]);
        let ru = i18n.text(Lang::Ru, "lang-set", args![]);
        assert_ne!(en, ru);
        assert_eq!(i18n.text(Lang::Ru, "no-such-key", args![]), "no-such-key");
        let text = i18n.text(Lang::En, "error-unknown-variant", args!["variant" => "xyz"]);
        assert!(text.contains("xyz"), "{text}");
    }
}
