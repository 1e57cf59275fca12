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
            "en" | "english" => Some(Lang::En),
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
