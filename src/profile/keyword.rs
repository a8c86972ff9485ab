//! Keyword ids: the JSON Schema keywords (and the few non-standard keys met in real tool
//! schemas) that the check walk, `keyword-unsupported` and [`CompiledProfile::lookup`]
//! (`super::compiled`) tell apart, each read from its key once by [`id`] instead of by one
//! string `match` per reader: a `match` on a string compares it with each arm in turn, and
//! every key of every subschema went through three of them.
//!
//! [`CompiledProfile::lookup`]: super::compiled::CompiledProfile::lookup

/// The keywords by id: `KEYWORDS[i]` is the keyword of id `i`.
pub const KEYWORDS: [&str; COUNT] = [
    "type",
    "description",
    "properties",
    "required",
    "items",
    "default",
    "title",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "examples",
    "anyOf",
    "const",
    "enum",
    "$ref",
    "oneOf",
    "allOf",
    "prefixItems",
    "not",
    "format",
    "nullable",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "propertyNames",
    "contains",
    "if",
    "then",
    "else",
    "$schema",
    "$id",
    "pattern",
    "multipleOf",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "optional",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "dependencies",
    "dependentRequired",
];

/// How many keywords have an id.
pub const COUNT: usize = 53;

pub const TYPE: u8 = 0;
pub const DESCRIPTION: u8 = 1;
pub const PROPERTIES: u8 = 2;
pub const REQUIRED: u8 = 3;
pub const ITEMS: u8 = 4;
pub const DEFAULT: u8 = 5;
pub const TITLE: u8 = 6;
pub const MAX_LENGTH: u8 = 10;
pub const ANY_OF: u8 = 14;
pub const CONST: u8 = 15;
pub const ENUM: u8 = 16;
pub const REF: u8 = 17;
pub const ONE_OF: u8 = 18;
pub const ALL_OF: u8 = 19;
pub const PREFIX_ITEMS: u8 = 20;
pub const NOT: u8 = 21;
pub const FORMAT: u8 = 22;
pub const NULLABLE: u8 = 23;
pub const DEFS: u8 = 24;
pub const DEFINITIONS: u8 = 25;
pub const PATTERN_PROPERTIES: u8 = 26;
pub const DEPENDENT_SCHEMAS: u8 = 27;
pub const ADDITIONAL_PROPERTIES: u8 = 28;
pub const UNEVALUATED_PROPERTIES: u8 = 29;
pub const UNEVALUATED_ITEMS: u8 = 30;
pub const ADDITIONAL_ITEMS: u8 = 31;
pub const PROPERTY_NAMES: u8 = 32;
pub const CONTAINS: u8 = 33;
pub const IF: u8 = 34;
pub const THEN: u8 = 35;
pub const ELSE: u8 = 36;
pub const SCHEMA: u8 = 37;
pub const ID: u8 = 38;
pub const PATTERN: u8 = 39;
pub const MULTIPLE_OF: u8 = 40;
pub const EXCLUSIVE_MINIMUM: u8 = 41;
pub const EXCLUSIVE_MAXIMUM: u8 = 42;
pub const DEPENDENCIES: u8 = 51;

/// The id of keyword `k`, or `None` for a key without one. Dispatched on the length first,
/// so that a key is compared with the few keywords of its length (each a compare of known
/// size, which the compiler inlines) rather than with every keyword.
#[inline]
pub fn id(k: &str) -> Option<u8> {
    Some(match k.len() {
        2 => match k {
            "if" => IF,
            _ => return None,
        },
        3 => match k {
            "not" => NOT,
            "$id" => ID,
            _ => return None,
        },
        4 => match k {
            "type" => TYPE,
            "enum" => ENUM,
            "$ref" => REF,
            "then" => THEN,
            "else" => ELSE,
            _ => return None,
        },
        5 => match k {
            "items" => ITEMS,
            "title" => TITLE,
            "anyOf" => ANY_OF,
            "const" => CONST,
            "oneOf" => ONE_OF,
            "allOf" => ALL_OF,
            "$defs" => DEFS,
            _ => return None,
        },
        6 => match k {
            "format" => FORMAT,
            _ => return None,
        },
        7 => match k {
            "default" => DEFAULT,
            "minimum" => 7,
            "maximum" => 8,
            "$schema" => SCHEMA,
            "pattern" => PATTERN,
            _ => return None,
        },
        8 => match k {
            "required" => REQUIRED,
            "minItems" => 11,
            "maxItems" => 12,
            "examples" => 13,
            "nullable" => NULLABLE,
            "contains" => CONTAINS,
            "optional" => 43,
            "readOnly" => 49,
            "$comment" => 47,
            _ => return None,
        },
        9 => match k {
            "minLength" => 9,
            "maxLength" => MAX_LENGTH,
            "writeOnly" => 50,
            _ => return None,
        },
        10 => match k {
            "properties" => PROPERTIES,
            "multipleOf" => MULTIPLE_OF,
            "deprecated" => 48,
            _ => return None,
        },
        11 => match k {
            "description" => DESCRIPTION,
            "definitions" => DEFINITIONS,
            "prefixItems" => PREFIX_ITEMS,
            "uniqueItems" => 44,
            _ => return None,
        },
        12 => match k {
            "dependencies" => DEPENDENCIES,
            _ => return None,
        },
        13 => match k {
            "propertyNames" => PROPERTY_NAMES,
            "minProperties" => 45,
            "maxProperties" => 46,
            _ => return None,
        },
        15 => match k {
            "additionalItems" => ADDITIONAL_ITEMS,
            _ => return None,
        },
        16 => match k {
            "dependentSchemas" => DEPENDENT_SCHEMAS,
            "unevaluatedItems" => UNEVALUATED_ITEMS,
            "exclusiveMinimum" => EXCLUSIVE_MINIMUM,
            "exclusiveMaximum" => EXCLUSIVE_MAXIMUM,
            _ => return None,
        },
        17 => match k {
            "patternProperties" => PATTERN_PROPERTIES,
            "dependentRequired" => 52,
            _ => return None,
        },
        20 => match k {
            "additionalProperties" => ADDITIONAL_PROPERTIES,
            _ => return None,
        },
        21 => match k {
            "unevaluatedProperties" => UNEVALUATED_PROPERTIES,
            _ => return None,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every keyword's id leads back to it, the named ids name their own keyword, and keys
    /// that only resemble one (another case, a prefix, one byte more) have none.
    #[test]
    fn ids_are_the_positions_of_the_keywords() {
        for (i, k) in KEYWORDS.iter().enumerate() {
            assert_eq!(id(k), Some(i as u8), "{k}");
        }
        for (named, k) in [
            (TYPE, "type"),
            (DESCRIPTION, "description"),
            (PROPERTIES, "properties"),
            (REQUIRED, "required"),
            (ITEMS, "items"),
            (DEFAULT, "default"),
            (TITLE, "title"),
            (MAX_LENGTH, "maxLength"),
            (ANY_OF, "anyOf"),
            (CONST, "const"),
            (ENUM, "enum"),
            (REF, "$ref"),
            (ONE_OF, "oneOf"),
            (ALL_OF, "allOf"),
            (PREFIX_ITEMS, "prefixItems"),
            (NOT, "not"),
            (FORMAT, "format"),
            (NULLABLE, "nullable"),
            (DEFS, "$defs"),
            (DEFINITIONS, "definitions"),
            (PATTERN_PROPERTIES, "patternProperties"),
            (DEPENDENT_SCHEMAS, "dependentSchemas"),
            (ADDITIONAL_PROPERTIES, "additionalProperties"),
            (UNEVALUATED_PROPERTIES, "unevaluatedProperties"),
            (UNEVALUATED_ITEMS, "unevaluatedItems"),
            (ADDITIONAL_ITEMS, "additionalItems"),
            (PROPERTY_NAMES, "propertyNames"),
            (CONTAINS, "contains"),
            (IF, "if"),
            (THEN, "then"),
            (ELSE, "else"),
            (SCHEMA, "$schema"),
            (ID, "$id"),
            (PATTERN, "pattern"),
            (MULTIPLE_OF, "multipleOf"),
            (EXCLUSIVE_MINIMUM, "exclusiveMinimum"),
            (EXCLUSIVE_MAXIMUM, "exclusiveMaximum"),
            (DEPENDENCIES, "dependencies"),
        ] {
            assert_eq!(KEYWORDS[named as usize], k);
        }
        for k in [
            "",
            "Type",
            "TYPE",
            "typ",
            "types",
            "x-type",
            "descriptio",
            "$Ref",
            "iff",
        ] {
            assert_eq!(id(k), None, "{k}");
        }
    }

    /// Every keyword with an id is one JSON Schema knows (`schema::KEYWORDS`), save the
    /// non-standard keys named here: a keyword added to one list and misspelled, or missing
    /// from the other, would be judged as a keyword by one reader and not by the other.
    #[test]
    fn ids_name_keywords_of_json_schema_or_known_non_standard_keys() {
        const NON_STANDARD: &[&str] = &["optional"];
        for k in KEYWORDS {
            assert!(
                crate::schema::KEYWORDS.contains(&k) != NON_STANDARD.contains(&k),
                "{k}: in schema::KEYWORDS, or else listed here as non-standard (not both)"
            );
        }
    }
}
