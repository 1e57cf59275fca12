//! A small `multipart/form-data` reader for what serenity uploads: a
//! `payload_json` part and `files[N]` parts.

/// One part of a multipart body.
#[derive(Clone, Debug)]
pub struct FormPart {
    /// The form field name (`payload_json`, `files[0]`).
    pub name: String,
    /// The file name, for files.
    pub file_name: Option<String>,
    /// The part's content type, if given.
    pub content_type: Option<String>,
    /// The raw bytes.
    pub data: Vec<u8>,
}

/// The boundary of a `multipart/form-data; boundary=…` content type.
pub fn boundary(content_type: &str) -> Option<String> {
    let (kind, parameters) = content_type.split_once(';')?;
    if !kind.trim().eq_ignore_ascii_case("multipart/form-data") {
        return None;
    }
    parameters.split(';').find_map(|parameter| {
        let (key, value) = parameter.trim().split_once('=')?;
        key.eq_ignore_ascii_case("boundary")
            .then(|| value.trim_matches('"').to_string())
    })
}

/// Splits a multipart body into its parts; malformed parts are skipped.
pub fn parse(body: &[u8], boundary: &str) -> Vec<FormPart> {
    let delimiter = format!("--{boundary}").into_bytes();
    let mut parts = Vec::new();
    let mut sections = split(body, &delimiter).into_iter().skip(1);
    for section in sections.by_ref() {
        if section.starts_with(b"--") {
            break;
        }
        let section = section.strip_prefix(b"\r\n").unwrap_or(section);
        let Some(header_end) = find(section, b"\r\n\r\n") else {
            continue;
        };
        let headers = String::from_utf8_lossy(&section[..header_end]).to_string();
        let data = &section[header_end + 4..];
        let data = data.strip_suffix(b"\r\n").unwrap_or(data);
        let mut part = FormPart {
            name: String::new(),
            file_name: None,
            content_type: None,
            data: data.to_vec(),
        };
        for line in headers.split("\r\n") {
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            if key.eq_ignore_ascii_case("content-disposition") {
                for item in value.split(';').map(str::trim) {
                    if let Some(name) = item.strip_prefix("name=") {
                        part.name = name.trim_matches('"').to_string();
                    } else if let Some(file) = item.strip_prefix("filename=") {
                        part.file_name = Some(file.trim_matches('"').to_string());
                    }
                }
            } else if key.eq_ignore_ascii_case("content-type") {
                part.content_type = Some(value.trim().to_string());
            }
        }
        parts.push(part);
    }
    parts
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

fn split<'a>(mut body: &'a [u8], delimiter: &[u8]) -> Vec<&'a [u8]> {
    let mut pieces = Vec::new();
    while let Some(at) = find(body, delimiter) {
        pieces.push(&body[..at]);
        body = &body[at + delimiter.len()..];
    }
    pieces.push(body);
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_json_and_file_parts() {
        let body = b"--XY\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"b.png\"\r\n\
Content-Type: image/png\r\n\r\n\x89PNG\r\n--XY\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"a\":1}\r\n--XY--\r\n";
        let parts = parse(body, "XY");
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].file_name.as_deref(), Some("b.png"));
        assert_eq!(parts[0].data, b"\x89PNG");
        assert_eq!(parts[1].name, "payload_json");
        assert_eq!(parts[1].data, b"{\"a\":1}");
        assert_eq!(
            boundary("multipart/form-data; boundary=XY").as_deref(),
            Some("XY")
        );
    }
}
