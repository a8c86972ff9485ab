//! The feature vocabulary: what a case's `parameter` names, and what `check` finds in a tool.
//!
//! A case informs one *feature*: `keyword-allowed: const`, `depth-limit: 11`,
//! `type-spelling: dict`. The same strings are what the detector reports when it sees that
//! feature in a real tool, so a profile derived from the cases can be applied to any tool.
//! The families and their spellings follow `cases/README.md`; this module is the only place
//! that spells them.

use std::fmt;

/// Parameter families (the part of a case's `parameter` before `:`).
pub mod family {
    pub const ROOT_SHAPE: &str = "root-shape";
    pub const TYPE_SPELLING: &str = "type-spelling";
    pub const TYPE_LIST: &str = "type-list";
    pub const TYPE_MISSING: &str = "type-missing";
    pub const KEYWORD: &str = "keyword-allowed";
    pub const FORMAT: &str = "format-allowed";
    pub const STRUCTURE: &str = "structure";
    pub const NAME_CHARS: &str = "name-chars";
    pub const NAME_UNIQUE: &str = "name-unique";
    pub const DESCRIPTION: &str = "description";
    pub const CONTROL: &str = "control";
}

/// Features whose value is a number: a tool uses `depth-limit: N` when its schema is at least
/// N deep, so a profile allows a value when every case with N at or below it is accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Limit {
    /// Nesting of object schemas, counting the root object as 1.
    Depth,
    /// Members of the largest `enum`.
    EnumSize,
    /// Properties declared in the whole parameters schema (every `properties` map counted).
    PropertyCount,
    /// Properties declared across the parameters schemas of all the tools of one request
    /// (each counted as [`Limit::PropertyCount`] counts one): Cohere's `strict_tools` allows
    /// "a maximum of 200 fields across all tools" (docs.cohere.com tool-use-parameter-types).
    RequestPropertyCount,
    /// Bytes of the parameters schema as compact JSON.
    SchemaBytes,
    /// Tools in one request.
    ToolCount,
    /// Characters (Unicode scalar values) of a tool name.
    NameLength,
    /// Characters of a tool description.
    DescriptionLength,
    /// Characters (Unicode scalar values) of a property name (a key of `properties`).
    PropertyNameLength,
}

impl Limit {
    pub const ALL: [Limit; 9] = [
        Limit::Depth,
        Limit::EnumSize,
        Limit::PropertyCount,
        Limit::RequestPropertyCount,
        Limit::SchemaBytes,
        Limit::ToolCount,
        Limit::NameLength,
        Limit::DescriptionLength,
        Limit::PropertyNameLength,
    ];

    /// The parameter family, e.g. `depth-limit`.
    pub fn family(self) -> &'static str {
        match self {
            Limit::Depth => "depth-limit",
            Limit::EnumSize => "enum-size-limit",
            Limit::PropertyCount => "property-count-limit",
            Limit::RequestPropertyCount => "request-property-count-limit",
            Limit::SchemaBytes => "schema-bytes-limit",
            Limit::ToolCount => "tool-count-limit",
            Limit::NameLength => "name-length-limit",
            Limit::DescriptionLength => "description-length-limit",
            Limit::PropertyNameLength => "property-name-length-limit",
        }
    }

    /// What is counted, for messages and tables.
    pub fn unit(self) -> &'static str {
        match self {
            Limit::Depth => "levels of object nesting",
            Limit::EnumSize => "enum members",
            Limit::PropertyCount => "properties",
            Limit::RequestPropertyCount => "properties across the request's tools",
            Limit::SchemaBytes => "bytes of schema",
            Limit::ToolCount => "tools in one request",
            Limit::NameLength => "characters of name",
            Limit::DescriptionLength => "characters of description",
            Limit::PropertyNameLength => "characters of property name",
        }
    }

    pub fn from_family(s: &str) -> Option<Limit> {
        Limit::ALL.into_iter().find(|l| l.family() == s)
    }
}

/// One feature as the detector reports it. Borrowed so that the hot path allocates nothing;
/// [`Feat::parameter`] gives the case parameter string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feat<'a> {
    /// `keyword-allowed: K`.
    Keyword(&'a str),
    /// `keyword-allowed: K (form)`, e.g. `enum (numbers)`, `$ref (remote)`.
    KeywordForm(&'a str, &'static str),
    /// `type-spelling: T` (the spelling exactly as written, standard ones included).
    TypeSpelling(&'a str),
    /// `type-list: a,b`.
    TypeList(&'static str),
    /// `type-missing`.
    TypeMissing,
    /// `format-allowed: F`.
    Format(&'a str),
    /// `structure: X`.
    Structure(&'static str),
    /// `root-shape: X`.
    RootShape(&'static str),
    /// `name-chars: X`.
    NameChars(&'static str),
    /// `name-unique`.
    NameUnique,
    /// `description: X`.
    Description(&'static str),
    /// `<limit family>: N` with the value measured in the tool.
    Limit(Limit, usize),
}

/// The kinds of feature with a value looked up by string (see [`Feat::lookup_key`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Keyword,
    KeywordForm,
    TypeSpelling,
    TypeList,
    TypeMissing,
    Format,
    Structure,
    RootShape,
    NameChars,
    NameUnique,
    Description,
    Control,
}

impl Kind {
    pub const COUNT: usize = 12;
    pub fn index(self) -> usize {
        self as usize
    }
}

impl<'a> Feat<'a> {
    /// The case parameter this feature is, e.g. `keyword-allowed: $ref (remote)`; for a limit
    /// the measured value is written as N.
    pub fn parameter(&self) -> String {
        self.to_string()
    }

    /// (kind, value) used to look the feature up; `None` for limits. The value of a
    /// [`Feat::KeywordForm`] is `K (form)`, which needs an allocation (forms are rare).
    pub fn lookup_key(&self) -> Option<(Kind, std::borrow::Cow<'a, str>)> {
        use std::borrow::Cow::{Borrowed, Owned};
        Some(match *self {
            Feat::Keyword(k) => (Kind::Keyword, Borrowed(k)),
            Feat::KeywordForm(k, f) => (Kind::KeywordForm, Owned(format!("{k} ({f})"))),
            Feat::TypeSpelling(t) => (Kind::TypeSpelling, Borrowed(t)),
            Feat::TypeList(t) => (Kind::TypeList, Borrowed(t)),
            Feat::TypeMissing => (Kind::TypeMissing, Borrowed("")),
            Feat::Format(f) => (Kind::Format, Borrowed(f)),
            Feat::Structure(s) => (Kind::Structure, Borrowed(s)),
            Feat::RootShape(s) => (Kind::RootShape, Borrowed(s)),
            Feat::NameChars(s) => (Kind::NameChars, Borrowed(s)),
            Feat::NameUnique => (Kind::NameUnique, Borrowed("")),
            Feat::Description(s) => (Kind::Description, Borrowed(s)),
            Feat::Limit(..) => return None,
        })
    }
}

impl fmt::Display for Feat<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use family::*;
        match self {
            Feat::Keyword(k) => write!(f, "{KEYWORD}: {k}"),
            Feat::KeywordForm(k, form) => write!(f, "{KEYWORD}: {k} ({form})"),
            Feat::TypeSpelling(t) => write!(f, "{TYPE_SPELLING}: {t}"),
            Feat::TypeList(t) => write!(f, "{TYPE_LIST}: {t}"),
            Feat::TypeMissing => f.write_str(TYPE_MISSING),
            Feat::Format(x) => write!(f, "{FORMAT}: {x}"),
            Feat::Structure(x) => write!(f, "{STRUCTURE}: {x}"),
            Feat::RootShape(x) => write!(f, "{ROOT_SHAPE}: {x}"),
            Feat::NameChars(x) => write!(f, "{NAME_CHARS}: {x}"),
            Feat::NameUnique => f.write_str(NAME_UNIQUE),
            Feat::Description(x) => write!(f, "{DESCRIPTION}: {x}"),
            Feat::Limit(l, n) => write!(f, "{}: {n}", l.family()),
        }
    }
}

impl Kind {
    /// The parameter family this kind is spelled with (`keyword-allowed` for both keyword
    /// kinds).
    pub fn family(self) -> &'static str {
        use family::*;
        match self {
            Kind::Keyword | Kind::KeywordForm => KEYWORD,
            Kind::TypeSpelling => TYPE_SPELLING,
            Kind::TypeList => TYPE_LIST,
            Kind::TypeMissing => TYPE_MISSING,
            Kind::Format => FORMAT,
            Kind::Structure => STRUCTURE,
            Kind::RootShape => ROOT_SHAPE,
            Kind::NameChars => NAME_CHARS,
            Kind::NameUnique => NAME_UNIQUE,
            Kind::Description => DESCRIPTION,
            Kind::Control => CONTROL,
        }
    }
}

impl fmt::Display for Param {
    /// The parameter in the spelling [`Feat`]'s `Display` gives (`family: value`, or the
    /// family alone when it takes no value).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Param::Keyed(kind, v) if v.is_empty() => f.write_str(kind.family()),
            Param::Keyed(kind, v) => write!(f, "{}: {v}", kind.family()),
            Param::Limit(l, n) => write!(f, "{}: {n}", l.family()),
        }
    }
}

/// A case parameter, parsed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Param {
    /// A looked-up feature: kind and value (`K (form)` for keyword forms).
    Keyed(Kind, String),
    /// A limit case: family and N.
    Limit(Limit, usize),
}

/// Parses a case's `parameter` string. Returns `None` for a string outside the vocabulary.
pub fn parse_parameter(s: &str) -> Option<Param> {
    use family::*;
    let s = s.trim();
    let (fam, value) = match s.split_once(':') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (s, ""),
    };
    if let Some(limit) = Limit::from_family(fam) {
        return value.parse().ok().map(|n| Param::Limit(limit, n));
    }
    let kind = match fam {
        KEYWORD if value.ends_with(')') && value.contains(" (") => Kind::KeywordForm,
        KEYWORD => Kind::Keyword,
        TYPE_SPELLING => Kind::TypeSpelling,
        TYPE_LIST => Kind::TypeList,
        TYPE_MISSING => Kind::TypeMissing,
        FORMAT => Kind::Format,
        STRUCTURE => Kind::Structure,
        ROOT_SHAPE => Kind::RootShape,
        NAME_CHARS => Kind::NameChars,
        NAME_UNIQUE => Kind::NameUnique,
        DESCRIPTION => Kind::Description,
        CONTROL => Kind::Control,
        _ => return None,
    };
    let needs_value = !matches!(kind, Kind::TypeMissing | Kind::NameUnique | Kind::Control);
    if needs_value == value.is_empty() {
        return None;
    }
    Some(Param::Keyed(kind, value.to_string()))
}

/// Values used by the detector (the `x` of `structure: x` and friends), spelled as in
/// `cases/README.md`'s vocabulary. Kept together so that the spelling lives in one place.
pub mod value {
    // root-shape
    pub const ROOT_ABSENT: &str = "parameters-absent";
    pub const ROOT_NULL: &str = "parameters-null";
    pub const ROOT_TRUE: &str = "true-schema";
    pub const ROOT_FALSE: &str = "false-schema";
    pub const ROOT_NOT_A_SCHEMA: &str = "not-a-schema";
    pub const ROOT_EMPTY: &str = "empty-schema";
    pub const ROOT_INSTANCE: &str = "instance-not-schema";
    pub const ROOT_NO_TYPE: &str = "no-type";
    pub const ROOT_TYPE_NULL: &str = "type-null";
    pub const ROOT_NO_ARGUMENTS: &str = "no-arguments";
    pub const ROOT_OBJECT_WITHOUT_PROPERTIES: &str = "object-without-properties";
    // structure
    pub const ARRAY_WITHOUT_ITEMS: &str = "array-without-items";
    pub const OBJECT_WITHOUT_PROPERTIES: &str = "object-without-properties";
    pub const EMPTY_PROPERTIES: &str = "empty-properties";
    pub const PROPERTIES_ON_NON_OBJECT: &str = "properties-on-non-object";
    pub const PROPERTIES_LIST: &str = "properties-list";
    pub const PROPERTIES_NULL: &str = "properties-null";
    pub const PROPERTIES_NOT_OBJECT: &str = "properties-not-object";
    pub const ITEMS_ON_NON_ARRAY: &str = "items-on-non-array";
    pub const ITEMS_EMPTY_LIST: &str = "items-empty-list";
    pub const ITEMS_WITHOUT_TYPE: &str = "items-without-type";
    pub const REQUIRED_UNDECLARED: &str = "required-undeclared";
    pub const REQUIRED_NOT_ARRAY: &str = "required-not-array";
    pub const REQUIRED_NULL: &str = "required-null";
    pub const REQUIRED_BOOLEAN: &str = "required-boolean";
    pub const REQUIRED_EMPTY: &str = "required-empty";
    /// `required` naming one property twice (2020-12 wants its items unique).
    pub const REQUIRED_DUPLICATES: &str = "required-duplicates";
    pub const REQUIRED_WITHOUT_PROPERTIES: &str = "required-without-properties";
    /// An object schema without `additionalProperties: false` in a tool that asks for
    /// OpenAI's strict mode.
    pub const STRICT_OPEN_OBJECT: &str = "strict-open-object";
    /// A property its object's `required` does not list, in a tool that asks for OpenAI's
    /// strict mode.
    pub const STRICT_REQUIRED_INCOMPLETE: &str = "strict-required-incomplete";
    pub const SCHEMA_NOT_OBJECT: &str = "property-schema-string";
    pub const BOOLEAN_SCHEMA_TRUE: &str = "property-schema-true";
    pub const BOOLEAN_SCHEMA_FALSE: &str = "property-schema-false";
    pub const REF_UNRESOLVED: &str = "ref-unresolved";
    /// A parameters schema the JSON Schema 2020-12 meta-schema refuses, at a place no other
    /// feature of the walk explains (`meta-schema-invalid`).
    pub const META_SCHEMA_INVALID: &str = "meta-schema-invalid";
    /// `property-named-<keyword>` for a property named like a keyword.
    pub const PROPERTY_NAMED: &str = "property-named-";
    /// `property-name-<kind>`: a kind of character in a property name (a key of
    /// `properties`) outside letters, digits, `_`, `.` and `-`, or the empty name.
    pub const PROPERTY_NAME: &str = "property-name-";
    pub const PROPERTY_NAME_SPACE: &str = "property-name-space";
    pub const PROPERTY_NAME_SLASH: &str = "property-name-slash";
    pub const PROPERTY_NAME_TILDE: &str = "property-name-tilde";
    /// ASCII punctuation other than `_`, `.`, `-`, `/`, `~` and the space.
    pub const PROPERTY_NAME_OTHER: &str = "property-name-other-punctuation";
    /// Non-ASCII characters other than controls and bidi controls.
    pub const PROPERTY_NAME_NON_ASCII: &str = "property-name-non-ascii";
    /// Control characters (C0, DEL, C1) and bidi formatting characters (UAX #9), which do
    /// not show as what they are.
    pub const PROPERTY_NAME_CONTROL: &str = "property-name-control";
    pub const PROPERTY_NAME_EMPTY: &str = "property-name-empty";
    // type spellings that are not written as themselves
    pub const TYPE_EMPTY_STRING: &str = "\"\"";
    pub const TYPE_JSON_NULL: &str = "null (JSON null)";
    /// A `type` (or a name in a `type` list) that is no string: a number, a boolean, an
    /// object, a list inside the list.
    pub const TYPE_NOT_A_STRING: &str = "not-a-string";
    /// `type: []`, a list that names no type (the meta-schema wants at least one name,
    /// `minItems: 1`): no string, but not a value of another kind either, as `""` is the
    /// empty string.
    pub const TYPE_EMPTY_LIST: &str = "[]";
    // type-list representatives
    pub const LIST_WITH_NULL: &str = "string,null";
    pub const LIST_OF_TYPES: &str = "string,integer";
    pub const LIST_OF_ONE: &str = "string";
    // keyword forms
    pub const ENUM_STRINGS: &str = "strings";
    pub const ENUM_NUMBERS: &str = "numbers";
    pub const ENUM_MIXED: &str = "mixed";
    pub const ENUM_NULL: &str = "null member";
    pub const ENUM_EMPTY: &str = "empty";
    pub const ENUM_NOT_ARRAY: &str = "not an array";
    pub const REF_LOCAL: &str = "local $defs";
    pub const REF_RECURSIVE: &str = "recursive";
    pub const REF_SELF: &str = "self-reference";
    /// A chain of `$ref`s longer than [`crate::schema::refs::MAX_REF_HOPS`] hops.
    pub const REF_CHAIN_TOO_LONG: &str = "chain too long";
    pub const REF_REMOTE: &str = "remote";
    pub const WITH_SIBLINGS: &str = "with siblings";
    /// `$ref` with a sibling `type` (Gemini's JSON-Schema field allows only `description` and
    /// `default` beside `$ref`: anomalyco/opencode#12295).
    pub const REF_WITH_TYPE: &str = "with type";
    /// `$ref` with a sibling `title`.
    pub const REF_WITH_TITLE: &str = "with title";
    /// `$ref` with a sibling `default`.
    pub const REF_WITH_DEFAULT: &str = "with default";
    /// `$ref` with a sibling that neither has a form of its own nor is `description` (which
    /// the `with siblings` case has): `enum`, `format`, `items`, `properties`, ...
    pub const REF_WITH_OTHER: &str = "with other keywords";
    pub const ITEMS_LIST: &str = "list";
    pub const BOOL_TRUE: &str = "true";
    pub const BOOL_FALSE: &str = "false";
    pub const SCHEMA: &str = "schema";
    pub const DRAFT4_BOOLEAN: &str = "draft-4 boolean";
    pub const NULL_BRANCH: &str = "null branch";
    pub const NULLABLE_ARRAY: &str = "array";
    pub const LARGE: &str = "large";
    /// A number written with a fraction part or an exponent: `multipleOf: 0.5`
    /// (keyword-unsupported's form), or a whole count written so, `minLength: 3.0`
    /// (keyword-value-invalid's: 2020-12 reads it as the integer 3, some parsers refuse it).
    pub const DECIMAL: &str = "decimal";
    /// A whole count of 2^64 or more (`maxLength: 18446744073709551616`, or `1e30`):
    /// 2020-12 takes any non-negative integer, but no 64-bit integer holds it, so a parser
    /// reading counts as one refuses it (serde_json, as toolwire reads JSON, reads it as a
    /// float, so whether it was written as an integer literal is not known here: trial 79 D3
    /// had such a literal called "written with a fraction part or an exponent").
    pub const COUNT_PAST_64_BITS: &str = "2^64 or more";
    pub const PATTERN_LOOKAHEAD: &str = "lookahead";
    pub const PATTERN_NAMED_GROUP: &str = "named group";
    pub const PATTERN_UNANCHORED: &str = "unanchored";
    pub const SCHEMA_DRAFT_07: &str = "draft-07";
    pub const SCHEMA_OTHER_DRAFT: &str = "other draft";
    pub const ID_NOT_URI: &str = "not a uri-reference";
    // keyword forms for values the keyword does not take (keyword-value-invalid)
    /// A numeric keyword given as a JSON string (`minimum: "1"`).
    pub const VALUE_STRING: &str = "string";
    /// A numeric keyword given as null, a boolean, a list or an object.
    pub const VALUE_NOT_A_NUMBER: &str = "not a number";
    /// A count below 0, or a negative `multipleOf`.
    pub const VALUE_NEGATIVE: &str = "negative";
    /// A count with a fractional part (`minItems: 1.5`).
    pub const VALUE_NOT_AN_INTEGER: &str = "not an integer";
    /// `multipleOf: 0`.
    pub const VALUE_ZERO: &str = "zero";
    /// A string-valued keyword (`pattern`, `description`, ...) given as another JSON kind.
    pub const VALUE_NOT_A_STRING: &str = "not a string";
    /// A `pattern` that does not compile.
    pub const VALUE_INVALID_REGEX: &str = "invalid regex";
    /// `additionalProperties` that is neither a schema object nor a boolean.
    pub const VALUE_NOT_A_SCHEMA: &str = "not a schema";
    /// A boolean keyword (`uniqueItems`, `deprecated`, ...) given as another JSON kind.
    pub const VALUE_NOT_A_BOOLEAN: &str = "not a boolean";
    /// A keyword that takes a non-empty list of schemas (`anyOf`, ...) given an empty list.
    pub const VALUE_EMPTY_LIST: &str = "empty";
    /// A keyword that takes a list of schemas given another JSON kind.
    pub const VALUE_NOT_A_LIST: &str = "not an array";
    /// Every `x-` key is judged by this case.
    pub const VENDOR_KEY: &str = "x-vendor";
    // name-chars
    pub const NAME_LOWER: &str = "lowercase";
    pub const NAME_UPPER: &str = "uppercase";
    pub const NAME_DIGIT: &str = "digit";
    pub const NAME_UNDERSCORE: &str = "underscore";
    pub const NAME_HYPHEN: &str = "hyphen";
    pub const NAME_DOT: &str = "dot";
    pub const NAME_COLON: &str = "colon";
    pub const NAME_SPACE: &str = "space";
    pub const NAME_SLASH: &str = "slash";
    pub const NAME_NON_ASCII: &str = "non-ascii";
    pub const NAME_OTHER: &str = "other-punctuation";
    pub const NAME_LEADING_DIGIT: &str = "leading-digit";
    pub const NAME_LEADING_UNDERSCORE: &str = "leading-underscore";
    pub const NAME_LEADING_HYPHEN: &str = "leading-hyphen";
    pub const NAME_LEADING_DOT: &str = "leading-dot";
    pub const NAME_LEADING_COLON: &str = "leading-colon";
    pub const NAME_EMPTY: &str = "empty";
    /// The kinds of character a name is made of, in the order findings name them; then the
    /// kinds of where it starts, and the empty name: every `name-chars` value.
    pub const NAME_KINDS: [&str; 17] = [
        NAME_LOWER,
        NAME_UPPER,
        NAME_DIGIT,
        NAME_UNDERSCORE,
        NAME_HYPHEN,
        NAME_DOT,
        NAME_COLON,
        NAME_SLASH,
        NAME_SPACE,
        NAME_OTHER,
        NAME_NON_ASCII,
        NAME_LEADING_DIGIT,
        NAME_LEADING_UNDERSCORE,
        NAME_LEADING_HYPHEN,
        NAME_LEADING_DOT,
        NAME_LEADING_COLON,
        NAME_EMPTY,
    ];
    /// How many of [`NAME_KINDS`] are kinds of character (the rest are where a name starts).
    pub const NAME_CHAR_KINDS: usize = 11;
    // description
    pub const DESC_MISSING: &str = "missing";
    pub const DESC_EMPTY: &str = "empty";
    pub const DESC_WHITESPACE: &str = "whitespace-only";
    pub const DESC_NON_ASCII: &str = "non-ascii";
    pub const DESC_MULTILINE: &str = "multiline";
}

/// The JSON types JSON Schema defines.
pub const STANDARD_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// The standard type `spelling` writes in another case (`Integer`, `STRING` → `integer`,
/// `string`), or `None` when it is a standard name as written or no standard name at all.
/// Every target that accepts such a spelling reads it as that type (Gemini's upper-case
/// names are its Protocol Buffers `Type` enum), so writing it in lower case changes no
/// accepted argument.
pub fn case_variant_of_standard_type(spelling: &str) -> Option<&'static str> {
    if STANDARD_TYPES.contains(&spelling) {
        return None;
    }
    STANDARD_TYPES
        .iter()
        .copied()
        .find(|t| t.eq_ignore_ascii_case(spelling))
}

/// The JSON Schema type a `type` spelling means (any case; `dict` → `object`, `float` →
/// `number`, `str` → `string`, ...), with what the spelling said that the type does not
/// (`tuple`: "a fixed-length tuple"), or `None` when it names no JSON type (`any`). The
/// table `toolwire repair` rewrites spellings by (see `repair::fixes::types`), and so what
/// `type-invalid` marks repairable. The spellings are those met in real tool definitions.
pub fn type_meant_by(spelling: &str) -> Option<(&'static str, Option<&'static str>)> {
    // Lower-cased on the stack and matched as bytes: the check walk asks this of every `type`
    // it reads, and a UTF-8 check of the copy showed in profiles.
    // One pass that copies and lowers each byte: a copy then a pass called `memcpy` for a
    // few bytes.
    let mut buf = [0u8; 12];
    let lower = buf.get_mut(..spelling.len())?;
    for (to, from) in lower.iter_mut().zip(spelling.bytes()) {
        *to = from.to_ascii_lowercase();
    }
    Some(match &*lower {
        b"object" | b"dict" | b"map" | b"hashmap" | b"record" | b"struct" => ("object", None),
        b"number" | b"float" | b"double" | b"decimal" | b"numeric" | b"real" => ("number", None),
        b"integer" | b"int" | b"long" | b"short" | b"int32" | b"int64" | b"bigint" => {
            ("integer", None)
        }
        b"string" | b"str" | b"text" => ("string", None),
        b"char" | b"character" => ("string", Some("a single character")),
        b"array" | b"list" | b"arraylist" | b"sequence" => ("array", None),
        b"tuple" => ("array", Some("a fixed-length tuple")),
        b"set" => ("array", Some("items without repeats")),
        b"boolean" | b"bool" => ("boolean", None),
        b"null" | b"none" => ("null", None),
        _ => return None,
    })
}

/// The names a `type` written as one string joins, for a string that is a list of types
/// written out in one (`"string, null"`, `"string,null"`, `"string | null"`, `"str|None"`):
/// the pieces between `,` and `|`, each trimmed of white space, in order, when there are at least
/// two and every one is a name [`type_meant_by`] reads. `None` for any other string (one
/// name, an empty piece `"string,"`, a piece no type is meant by `"string, foo"`).
///
/// Only the meaning is read here: no case covers such a spelling, so what a target does with
/// it is unknown (check's verdict is the spelling's own); check's words and repair's rewrite
/// say the list it means.
pub fn joined_type_names(spelling: &str) -> Option<Vec<&str>> {
    // Asked of every non-standard spelling the walk meets (`STRING`, `dict`, ...): nothing
    // is split without a separator, nor shorter than two of the shortest names and one
    // (`int|str`), which answers most spellings by their length alone.
    if spelling.len() < 7 || !spelling.bytes().any(|b| b == b',' || b == b'|') {
        return None;
    }
    let names: Vec<&str> = spelling.split([',', '|']).map(str::trim).collect();
    (names.len() > 1 && names.iter().all(|n| type_meant_by(n).is_some())).then_some(names)
}

/// The position of `t` in [`STANDARD_TYPES`] when it is one as written: a match, not a scan
/// of the list (whose order it keeps; a test holds the two). Asked of every `type` the check
/// walk reads.
pub fn standard_type_index(t: &str) -> Option<usize> {
    Some(match t {
        "string" => 0,
        "number" => 1,
        "integer" => 2,
        "boolean" => 3,
        "array" => 4,
        "object" => 5,
        "null" => 6,
        _ => return None,
    })
}

/// Whether `t` is one of [`STANDARD_TYPES`] as written: one match instead of a scan of the
/// list (asked of every `type` the check walk reads).
pub fn is_standard_type(t: &str) -> bool {
    matches!(
        t,
        "string" | "number" | "integer" | "boolean" | "array" | "object" | "null"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_round_trip() {
        for feat in [
            Feat::Keyword("const"),
            Feat::KeywordForm("$ref", "remote"),
            Feat::TypeSpelling("dict"),
            Feat::TypeList("string,null"),
            Feat::TypeMissing,
            Feat::Format("uuid"),
            Feat::Structure("array-without-items"),
            Feat::RootShape("string"),
            Feat::NameChars("dot"),
            Feat::NameUnique,
            Feat::Description("missing"),
        ] {
            let p = parse_parameter(&feat.parameter()).unwrap();
            let (kind, value) = feat.lookup_key().unwrap();
            assert_eq!(p, Param::Keyed(kind, value.into_owned()), "{feat}");
            // The profile's findings quote the parsed spelling: it must be the feature's.
            assert_eq!(p.to_string(), feat.parameter(), "{feat}");
        }
        assert_eq!(
            parse_parameter("depth-limit: 11"),
            Some(Param::Limit(Limit::Depth, 11))
        );
        assert_eq!(
            parse_parameter("control"),
            Some(Param::Keyed(Kind::Control, String::new()))
        );
        assert_eq!(parse_parameter("frobnicate: x"), None);
        assert_eq!(parse_parameter("keyword-allowed:"), None);
        assert_eq!(parse_parameter("depth-limit: many"), None);
    }

    /// A string that joins type names reads as them; anything else as no list.
    #[test]
    fn joined_type_names_are_read_only_when_each_means_a_type() {
        assert_eq!(
            joined_type_names("string, null"),
            Some(vec!["string", "null"])
        );
        assert_eq!(
            joined_type_names("string,null"),
            Some(vec!["string", "null"])
        );
        assert_eq!(
            joined_type_names("string | null"),
            Some(vec!["string", "null"])
        );
        assert_eq!(
            joined_type_names("string|null"),
            Some(vec!["string", "null"])
        );
        assert_eq!(
            joined_type_names("str | None, int"),
            Some(vec!["str", "None", "int"])
        );
        for no in ["string", "string,", ",null", "string, foo", "a|b", "", "|"] {
            assert_eq!(joined_type_names(no), None, "{no}");
        }
    }
}
