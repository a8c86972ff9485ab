//! Credentials that cannot leak through formatting.
//!
//! A [`Secret`] prints as `[REDACTED]` under both `Debug` and `Display`, so a key can never
//! reach a log line, an error message, a panic message or `{:?}` output by accident; the only
//! way to read it is [`Secret::expose`], used where a request header is built.

use std::fmt;

/// A key or token read from the environment.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a value. Leading and trailing whitespace (a pasted newline) is dropped.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into().trim().to_string())
    }

    /// The secret itself, for building the one request header that carries it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[REDACTED]")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[REDACTED]")
    }
}

/// AWS credentials for SigV4 (environment variables as the AWS CLI and SDKs read them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AwsKeys {
    /// `AWS_ACCESS_KEY_ID` (an identifier, but treated as secret: it names the account user).
    pub access_key_id: Secret,
    /// `AWS_SECRET_ACCESS_KEY`.
    pub secret_access_key: Secret,
    /// `AWS_SESSION_TOKEN`, for temporary credentials.
    pub session_token: Option<Secret>,
}

/// The credential a route sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    /// An API key or bearer token; the route decides the header it goes in.
    Key(Secret),
    /// AWS SigV4 signing keys.
    Aws(AwsKeys),
}

impl Credential {
    /// Every secret string inside, for the run-log redactor.
    pub fn secrets(&self) -> Vec<String> {
        match self {
            Credential::Key(k) => vec![k.expose().to_string()],
            Credential::Aws(a) => {
                let mut v = vec![
                    a.access_key_id.expose().to_string(),
                    a.secret_access_key.expose().to_string(),
                ];
                if let Some(t) = &a.session_token {
                    v.push(t.expose().to_string());
                }
                v
            }
        }
    }
}

/// Variables that hold AWS credentials (SigV4), besides the routes' key variables.
const AWS_KEY_VARS: [&str; 3] = [
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
];

/// Every credential value set in `env` under a variable some target reads its key from
/// (each route's key variables and the AWS ones), whether or not a command sends it: a
/// provider's answer pasted into `explain`, or an error, may echo any of them, and output
/// redacts them ([`crate::evidence::runlog::Redactor::from_env`]).
pub fn known_secrets(env: &dyn crate::target::wire::Env) -> Vec<String> {
    let mut vars: Vec<&'static str> = crate::target::routes()
        .iter()
        .flat_map(|r| r.settings().key_env.to_vec())
        .chain(AWS_KEY_VARS)
        .collect();
    vars.sort_unstable();
    vars.dedup();
    vars.iter()
        .filter_map(|v| env.var(v))
        .map(|k| Secret::new(k).expose().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formatting_never_shows_the_value() {
        let s = Secret::new("tw-canary-1234567890\n");
        assert_eq!(s.expose(), "tw-canary-1234567890");
        assert_eq!(format!("{s}"), "[REDACTED]");
        assert_eq!(format!("{s:?}"), "[REDACTED]");
        let c = Credential::Aws(AwsKeys {
            access_key_id: Secret::new("AKIDCANARY"),
            secret_access_key: Secret::new("canary-secret"),
            session_token: None,
        });
        let dbg = format!("{c:?}");
        assert!(!dbg.contains("canary") && !dbg.contains("AKID"), "{dbg}");
        assert_eq!(c.secrets().len(), 2);
    }

    #[test]
    fn known_secrets_are_every_key_variable_set() {
        let env: std::collections::BTreeMap<String, String> = [
            ("OPENAI_API_KEY", "tw-canary-openai-1\n"),
            ("AWS_SECRET_ACCESS_KEY", "tw-canary-aws-2"),
            ("CO_API_KEY", "tw-canary-cohere-3"),
            ("HOME", "/home/someone"),
            ("GROQ_API_KEY", "  "),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let mut got = known_secrets(&env);
        got.sort();
        assert_eq!(
            got,
            [
                "tw-canary-aws-2",
                "tw-canary-cohere-3",
                "tw-canary-openai-1"
            ]
        );
    }
}
