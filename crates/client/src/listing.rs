//! A `tools/list` page read without building its entries as one `Value`: each message
//! is parsed as a `Value` but for the `tools` array of its `result`, whose entries are
//! built one at a time, each kept as its compact JSON text and its name
//! ([`ToolEntry`]) and dropped before the next is read. Built whole, a page cost 25–30
//! times its size (a map per schema object: ~150 MB for 10,000 tools in 6.5 MB); read
//! so, about its size twice (the body, and the texts).
//!
//! What is read is what a `Value` of the whole message holds: an entry's text is its
//! `Value`'s (compact; numbers and escapes as serde_json writes them; a key given twice
//! keeps its last value), its name is its string `name`; one parser reads it all, so its
//! errors and its nesting limit are the same; where `result` or `tools` is given twice,
//! the last stands. In the array's place the `result` holds `"tools": null`; a `tools`
//! that is no array stays as it came, and so does every other message and member.

use std::fmt;
use std::sync::Mutex;

use serde::Deserialize as _;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::surrogates::mended;

/// One entry of a page's `tools`: its compact JSON text, and its `name` when that is a
/// string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolEntry {
    pub text: Box<str>,
    pub name: Option<String>,
}

/// Where a client reading `tools/list` keeps the entries of the reply it read last
/// ([`crate::Client::listing_into`]), for its caller to take.
#[derive(Debug, Default)]
pub struct ToolPage(Mutex<Option<Vec<ToolEntry>>>);

impl ToolPage {
    /// The entries of the `tools` array of the last reply's `result`; `None` when it had
    /// no such array (or none was read).
    pub fn take(&self) -> Option<Vec<ToolEntry>> {
        self.0.lock().ok()?.take()
    }

    pub(crate) fn keep(&self, entries: Option<Vec<ToolEntry>>) {
        if let Ok(mut kept) = self.0.lock() {
            *kept = entries;
        }
    }
}

/// One JSON-RPC message as read: the message, and the entries of its `result`'s `tools`
/// array when it has one and they were kept apart (the array is then not in `message`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Read {
    pub message: Value,
    pub tools: Option<Vec<ToolEntry>>,
}

impl From<Value> for Read {
    fn from(message: Value) -> Self {
        Self {
            message,
            tools: None,
        }
    }
}

/// A body or an event's data as read: one message (or any other value), or a batch (a
/// JSON array) of them.
#[derive(Debug, PartialEq)]
pub(crate) enum Messages {
    One(Read),
    Batch(Vec<Read>),
}

impl From<Value> for Messages {
    fn from(value: Value) -> Self {
        match value {
            Value::Array(batch) => Self::Batch(batch.into_iter().map(Read::from).collect()),
            one => Self::One(one.into()),
        }
    }
}

/// `bytes` (a body or an event's data) read as [`Messages`]; by a reader of `tools/list`
/// pages (`listing`), each message's `result.tools` kept as texts.
/// A body with a lone surrogate escape is read again mended ([`mended`]); where that
/// fails too, the first refusal is the one told.
pub(crate) fn messages_of(bytes: &[u8], listing: bool) -> serde_json::Result<Messages> {
    let read = |bytes: &[u8]| {
        if listing {
            listing_of(bytes)
        } else {
            serde_json::from_slice::<Value>(bytes).map(Messages::from)
        }
    };
    read(bytes).or_else(|refused| match mended(bytes) {
        Some(mended) => read(&mended).map_err(|_| refused),
        None => Err(refused),
    })
}

/// `bytes` read as [`Messages`], each message's `result.tools` kept as texts.
fn listing_of(bytes: &[u8]) -> serde_json::Result<Messages> {
    listing(serde_json::Deserializer::from_slice(bytes))
}

/// As `serde_json::from_slice` reads a value: all of it, then nothing but white space.
fn listing<'de, R: serde_json::de::Read<'de>>(
    mut parser: serde_json::Deserializer<R>,
) -> serde_json::Result<Messages> {
    let messages = Visit(Top).deserialize(&mut parser)?;
    parser.end()?;
    Ok(messages)
}

/// How one place of a message is read when it holds an object or an array; anything
/// else there is the `Value` it would be anyway.
trait Place<'de>: Sized {
    type Out: From<Value>;

    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Out, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(Into::into)
    }

    fn seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Out, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(Into::into)
    }
}

/// The top of a body or an event's data: a message, or a batch of them.
struct Top;

impl<'de> Place<'de> for Top {
    type Out = Messages;

    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Messages, A::Error> {
        Envelope.map(map).map(Messages::One)
    }

    fn seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Messages, A::Error> {
        let mut batch = Vec::new();
        while let Some(message) = seq.next_element_seed(Visit(Envelope))? {
            batch.push(message);
        }
        Ok(Messages::Batch(batch))
    }
}

/// A message: its `result` read as a page's ([`PageResult`]), every other member a `Value`.
struct Envelope;

impl<'de> Place<'de> for Envelope {
    type Out = Read;

    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Read, A::Error> {
        object(map, "result", PageResult)
    }
}

/// A message's `result`: its `tools` read as entries ([`Tools`]), every other member a
/// `Value`.
#[derive(Clone, Copy)]
struct PageResult;

impl<'de> Place<'de> for PageResult {
    type Out = Read;

    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Read, A::Error> {
        object(map, "tools", Tools)
    }
}

/// An object whose member `special` is read as `place`, the entries it keeps apart
/// returned beside it; every other member a `Value`. A key given twice keeps its first
/// place and its last value, as a `Value`'s map does.
fn object<'de, A, P>(mut map: A, special: &str, place: P) -> Result<Read, A::Error>
where
    A: MapAccess<'de>,
    P: Place<'de, Out = Read> + Copy,
{
    let mut object = Map::new();
    let mut tools = None;
    while let Some(key) = map.next_key::<String>()? {
        let value = if key == special {
            let read = map.next_value_seed(Visit(place))?;
            tools = read.tools;
            read.message
        } else {
            map.next_value::<Value>()?
        };
        object.insert(key, value);
    }
    Ok(Read {
        message: Value::Object(object),
        tools,
    })
}

/// A `result`'s `tools`: an array's entries each built alone, kept as [`ToolEntry`]s.
#[derive(Clone, Copy)]
struct Tools;

impl<'de> Place<'de> for Tools {
    type Out = Read;

    fn seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Read, A::Error> {
        let mut entries = Vec::new();
        while let Some(tool) = seq.next_element::<Value>()? {
            let name = tool.get("name").and_then(Value::as_str).map(str::to_owned);
            let text = tool.to_string().into_boxed_str();
            entries.push(ToolEntry { text, name });
        }
        Ok(Read {
            message: Value::Null,
            tools: Some(entries),
        })
    }
}

/// Reads a place: what [`Place`] says for an object or an array, a `Value` for the rest
/// (as serde_json's own visitor of a `Value` makes each).
struct Visit<P>(P);

impl<'de, P: Place<'de>> DeserializeSeed<'de> for Visit<P> {
    type Value = P::Out;

    fn deserialize<D: Deserializer<'de>>(self, from: D) -> Result<P::Out, D::Error> {
        from.deserialize_any(self)
    }
}

impl<'de, P: Place<'de>> Visitor<'de> for Visit<P> {
    type Value = P::Out;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<P::Out, A::Error> {
        self.0.map(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<P::Out, A::Error> {
        self.0.seq(seq)
    }

    fn visit_bool<E: Error>(self, value: bool) -> Result<P::Out, E> {
        Ok(Value::Bool(value).into())
    }

    fn visit_i64<E: Error>(self, value: i64) -> Result<P::Out, E> {
        Ok(Value::from(value).into())
    }

    fn visit_u64<E: Error>(self, value: u64) -> Result<P::Out, E> {
        Ok(Value::from(value).into())
    }

    fn visit_f64<E: Error>(self, value: f64) -> Result<P::Out, E> {
        Ok(Value::from(value).into())
    }

    fn visit_str<E: Error>(self, value: &str) -> Result<P::Out, E> {
        Ok(Value::String(value.to_owned()).into())
    }

    fn visit_string<E: Error>(self, value: String) -> Result<P::Out, E> {
        Ok(Value::String(value).into())
    }

    fn visit_unit<E: Error>(self) -> Result<P::Out, E> {
        Ok(Value::Null.into())
    }

    fn visit_none<E: Error>(self) -> Result<P::Out, E> {
        Ok(Value::Null.into())
    }

    fn visit_some<D: Deserializer<'de>>(self, from: D) -> Result<P::Out, D::Error> {
        Value::deserialize(from).map(Into::into)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// `text` read as a page and as a `Value`: the one message of each.
    fn both(text: &str) -> (Read, Value) {
        let Ok(Messages::One(read)) = messages_of(text.as_bytes(), true) else {
            panic!("not one message: {text}");
        };
        let value = serde_json::from_str(text).expect("a value");
        (read, value)
    }

    /// Each entry is kept as the text and the name its `Value` has (a key given twice
    /// its last value, numbers and escapes as serde_json writes them, an entry without a
    /// name or no object at all); the rest of the message is its `Value`, the array's
    /// place `null`.
    #[test]
    fn a_pages_entries_are_the_texts_and_names_of_their_values() {
        let text = r#"{"jsonrpc":"2.0","id":1,"result":{"nextCursor":"n",
            "tools":[{"name":"a","inputSchema":{"type":"object","properties":{"z":{},"a":{}}}},
                     {"description":"no name"}, 7, {"name":7},
                     {"name":"first","name":"last"}, {"name":"n","x":1.0e2,"y":"\u0041\/"}],
            "_meta":{"k":[1,2]}}}"#;
        let (read, mut value) = both(text);
        let tools = value["result"]["tools"].take();
        assert_eq!(read.message, value);
        assert_eq!(
            read.message,
            json!({ "jsonrpc": "2.0", "id": 1,
                "result": { "nextCursor": "n", "tools": null, "_meta": { "k": [1, 2] } } })
        );
        let built: Vec<ToolEntry> = tools
            .as_array()
            .expect("an array")
            .iter()
            .map(|tool| ToolEntry {
                text: tool.to_string().into(),
                name: tool["name"].as_str().map(str::to_owned),
            })
            .collect();
        assert_eq!(read.tools.as_ref(), Some(&built));
        let names: Vec<Option<&str>> = built.iter().map(|e| e.name.as_deref()).collect();
        assert_eq!(
            names,
            [Some("a"), None, None, None, Some("last"), Some("n")]
        );
        assert_eq!(&*built[4].text, r#"{"name":"last"}"#);
        assert_eq!(&*built[5].text, r#"{"name":"n","x":100.0,"y":"A/"}"#);
        assert_eq!(
            &*built[0].text,
            r#"{"name":"a","inputSchema":{"type":"object","properties":{"z":{},"a":{}}}}"#
        );
    }

    /// Where `result` or `tools` is given twice, the last stands, in the first's place, as
    /// in a `Value`; a `tools` that is no array stays as it came; an empty array is no
    /// entries; a message with no `result` (a notification, an error) is its `Value`.
    #[test]
    fn the_last_of_a_member_given_twice_stands_and_the_rest_is_as_it_came() {
        let (read, value) =
            both(r#"{"result":{"tools":[{"name":"a"}]},"id":1,"result":{"tools":[{"name":"b"}]}}"#);
        assert_eq!(
            read.message,
            json!({ "result": { "tools": null }, "id": 1 })
        );
        assert_eq!(
            value,
            json!({ "result": { "tools": [{ "name": "b" }] }, "id": 1 })
        );
        let names = |read: &Read| {
            read.tools
                .as_ref()
                .map(|t| t.iter().map(|e| e.name.clone()).collect::<Vec<_>>())
        };
        assert_eq!(names(&read), Some(vec![Some("b".to_owned())]));
        let (read, _) = both(r#"{"result":{"tools":[{"name":"a"}],"tools":"none"}}"#);
        assert_eq!(read.message, json!({ "result": { "tools": "none" } }));
        assert_eq!(read.tools, None);
        let (read, _) = both(r#"{"result":{"tools":"none","tools":[]}}"#);
        assert_eq!(read.message, json!({ "result": { "tools": null } }));
        assert_eq!(read.tools, Some(Vec::new()));
        for text in [
            r#"{"result":{"tools":{"name":"a"}}}"#,
            r#"{"result":[{"tools":[1]}]}"#,
            r#"{"result":42,"id":1}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/x","params":{"tools":[{"name":"a"}]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no","data":{"tools":[]}}}"#,
            r#""a string""#,
            "null",
        ] {
            let (read, value) = both(text);
            assert_eq!((read.message, read.tools), (value, None), "{text}");
        }
    }

    /// A batch is read message by message, each with its own entries; anything else in it
    /// is its `Value`.
    #[test]
    fn a_batch_is_read_message_by_message() {
        let text = r#"[{"id":1,"result":{"tools":[{"name":"a"}]}},3,{"id":2,"result":{}}]"#;
        let Ok(Messages::Batch(batch)) = messages_of(text.as_bytes(), true) else {
            panic!("not a batch");
        };
        let messages: Vec<&Value> = batch.iter().map(|read| &read.message).collect();
        assert_eq!(
            messages,
            [
                &json!({ "id": 1, "result": { "tools": null } }),
                &json!(3),
                &json!({ "id": 2, "result": {} })
            ]
        );
        assert_eq!(batch[0].tools.as_ref().map(Vec::len), Some(1));
        assert_eq!(
            (batch[1].tools.as_ref(), batch[2].tools.as_ref()),
            (None, None)
        );
    }

    /// A malformed page is refused as a `Value` of it would be, in the parser's words and
    /// at its position: cut short inside an entry, a number no `Value` holds, nesting past
    /// the parser's limit inside an entry, something after the message, not JSON at all.
    #[test]
    fn a_malformed_page_is_refused_in_the_parsers_words() {
        let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
        for text in [
            r#"{"id":1,"result":{"tools":[{"name":"a","inputSchema":{"type""#.to_owned(),
            r#"{"id":1,"result":{"tools":[{"name":"a","x":1e999}]}}"#.to_owned(),
            format!(r#"{{"id":1,"result":{{"tools":[{{"name":"a","x":{deep}}}]}}}}"#),
            r#"{"id":1,"result":{"tools":[]}} {"id":2}"#.to_owned(),
            r#"{"id":1,"result":{"tools":[{"name":"a",}]}}"#.to_owned(),
            "<html>".to_owned(),
            String::new(),
        ] {
            let value = serde_json::from_str::<Value>(&text).expect_err("no value");
            for listing in [true, false] {
                let page = messages_of(text.as_bytes(), listing).expect_err("no page");
                assert_eq!(page.to_string(), value.to_string(), "{text}");
            }
        }
        let value = serde_json::from_slice::<Value>(b"{\"result\":{\"tools\":[\"\xff\"]}}")
            .expect_err("not UTF-8");
        let page = messages_of(b"{\"result\":{\"tools\":[\"\xff\"]}}", true).expect_err("no page");
        assert_eq!(page.to_string(), value.to_string());
    }

    /// A lone surrogate escape (a JavaScript server's text cut inside an emoji) is read as
    /// U+FFFD, in a message and in a page's entries; a body that is no JSON for another
    /// reason as well is refused in the parser's words for the first.
    #[test]
    fn a_lone_surrogate_is_read_as_the_replacement_character() {
        let text = r#"{"id":1,"result":{"content":[{"type":"text","text":"ok \ud83d"}]}}"#;
        let Ok(Messages::One(read)) = messages_of(text.as_bytes(), false) else {
            panic!("{text} refused");
        };
        assert_eq!(read.message["result"]["content"][0]["text"], "ok \u{fffd}");
        let text = r#"{"id":1,"result":{"tools":[{"name":"a","description":"\udc4d"}]}}"#;
        let Ok(Messages::One(read)) = messages_of(text.as_bytes(), true) else {
            panic!("{text} refused");
        };
        let tools = read.tools.expect("entries");
        assert_eq!(
            &*tools[0].text,
            "{\"name\":\"a\",\"description\":\"\u{fffd}\"}"
        );
        let text = r#"{"id":1,"result":{"text":"\ud83d",}}"#;
        let value = serde_json::from_str::<Value>(text).expect_err("no value");
        let read = messages_of(text.as_bytes(), false).expect_err("no message");
        assert_eq!(read.to_string(), value.to_string());
    }

    /// The page keeps the entries given last, for its caller to take once.
    #[test]
    fn a_page_gives_its_entries_once() {
        let page = ToolPage::default();
        assert_eq!(page.take(), None);
        let entry = ToolEntry {
            text: r#"{"name":"a"}"#.into(),
            name: Some("a".into()),
        };
        page.keep(Some(vec![entry.clone()]));
        page.keep(Some(vec![entry.clone(), entry.clone()]));
        assert_eq!(page.take(), Some(vec![entry.clone(), entry]));
        assert_eq!(page.take(), None);
    }
}
