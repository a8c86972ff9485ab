//! AWS Signature Version 4 for Bedrock requests (no AWS SDK: one POST needs ~100 lines).
//!
//! Follows docs.aws.amazon.com "Create a signed AWS API request": canonical request →
//! string to sign → signing key (HMAC chain over date, region, service) → signature. Paths of
//! non-S3 services are URI-encoded once more when canonicalised, which is why route paths
//! already carry `%3A` for the `:` in Bedrock model ids.

use sha2::{Digest, Sha256};

use super::secret::{AwsKeys, Secret};

/// HMAC-SHA256 (RFC 2104 over SHA-256, block size 64).
pub fn hmac_sha256(key: &[u8], data: &[u8]) -> [u8; 32] {
    let mut k = [0u8; 64];
    if key.len() > 64 {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(k.map(|b| b ^ 0x36));
    inner.update(data);
    let inner = inner.finalize();
    let mut outer = Sha256::new();
    outer.update(k.map(|b| b ^ 0x5c));
    outer.update(inner);
    outer.finalize().into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SigV4 signing key for one day, region and service.
pub fn signing_key(secret: &str, date: &str, region: &str, service: &str) -> [u8; 32] {
    let k = hmac_sha256(format!("AWS4{secret}").as_bytes(), date.as_bytes());
    let k = hmac_sha256(&k, region.as_bytes());
    let k = hmac_sha256(&k, service.as_bytes());
    hmac_sha256(&k, b"aws4_request")
}

/// RFC 3986 unreserved characters stay, everything else is `%XX` (upper-case hex).
fn uri_encode(s: &str, keep_slash: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b'/' if keep_slash => out.push('/'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Splits `scheme://host[:port]/path?query` into (host with port, path, query).
fn split_url(url: &str) -> (String, String, String) {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let (host, path_q) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let (path, query) = path_q.split_once('?').unwrap_or((path_q, ""));
    (host.to_string(), path.to_string(), query.to_string())
}

/// The credential headers for one request (`authorization`, `x-amz-date`, and
/// `x-amz-security-token` for temporary credentials).
#[allow(clippy::too_many_arguments)]
pub fn sign(
    method: &str,
    url: &str,
    headers: &[(String, String)],
    body: &[u8],
    keys: &AwsKeys,
    region: &str,
    service: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<(String, Secret)> {
    let amz_date = now.format("%Y%m%dT%H%M%SZ").to_string();
    let date = now.format("%Y%m%d").to_string();
    let (host, path, query) = split_url(url);
    let mut signed: Vec<(String, String)> = headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        .map(|(k, v)| (k.to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    signed.push(("host".into(), host));
    signed.push(("x-amz-date".into(), amz_date.clone()));
    if let Some(t) = &keys.session_token {
        signed.push(("x-amz-security-token".into(), t.expose().to_string()));
    }
    signed.sort();
    let canonical_uri = path
        .split('/')
        .map(|seg| uri_encode(seg, false))
        .collect::<Vec<_>>()
        .join("/");
    let mut pairs: Vec<(String, String)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (uri_encode(k, false), uri_encode(v, false))
        })
        .collect();
    pairs.sort();
    let canonical_query = pairs
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&");
    let canonical_headers: String = signed.iter().map(|(k, v)| format!("{k}:{v}\n")).collect();
    let signed_headers = signed
        .iter()
        .map(|(k, _)| k.as_str())
        .collect::<Vec<_>>()
        .join(";");
    let canonical = format!(
        "{method}\n{canonical_uri}\n{canonical_query}\n{canonical_headers}\n{signed_headers}\n{}",
        hex(&Sha256::digest(body))
    );
    let scope = format!("{date}/{region}/{service}/aws4_request");
    let to_sign = format!(
        "AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n{}",
        hex(&Sha256::digest(canonical.as_bytes()))
    );
    let key = signing_key(keys.secret_access_key.expose(), &date, region, service);
    let signature = hex(&hmac_sha256(&key, to_sign.as_bytes()));
    let mut out = vec![
        (
            "authorization".to_string(),
            Secret::new(format!(
                "AWS4-HMAC-SHA256 Credential={}/{scope}, SignedHeaders={signed_headers}, Signature={signature}",
                keys.access_key_id.expose()
            )),
        ),
        ("x-amz-date".to_string(), Secret::new(amz_date)),
    ];
    if let Some(t) = &keys.session_token {
        out.push(("x-amz-security-token".into(), t.clone()));
    }
    out
}

/// The access key id a SigV4 `authorization` header names (what the emulator checks).
pub fn access_key_of(authorization: &str) -> Option<&str> {
    let rest = authorization.strip_prefix("AWS4-HMAC-SHA256 ")?;
    let cred = rest
        .split(',')
        .find_map(|p| p.trim().strip_prefix("Credential="))?;
    cred.split('/').next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_rfc4231_case_2() {
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn signing_key_matches_the_aws_docs_example() {
        // docs.aws.amazon.com, "Examples of how to derive a signing key for Signature Version 4".
        let k = signing_key(
            "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            "20120215",
            "us-east-1",
            "iam",
        );
        assert_eq!(
            hex(&k),
            "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d"
        );
    }

    #[test]
    fn signature_matches_the_aws_docs_example() {
        // The IAM ListUsers example of the SigV4 documentation (2015-08-30 12:36:00 UTC).
        let keys = AwsKeys {
            access_key_id: Secret::new("AKIDEXAMPLE"),
            secret_access_key: Secret::new("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
            session_token: None,
        };
        let now = chrono::DateTime::parse_from_rfc3339("2015-08-30T12:36:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc);
        let h = sign(
            "GET",
            "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08",
            &[(
                "content-type".into(),
                "application/x-www-form-urlencoded; charset=utf-8".into(),
            )],
            b"",
            &keys,
            "us-east-1",
            "iam",
            now,
        );
        let auth = h[0].1.expose();
        assert!(
            auth.ends_with(
                "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
            ),
            "{auth}"
        );
        assert_eq!(access_key_of(auth), Some("AKIDEXAMPLE"));
    }
}
