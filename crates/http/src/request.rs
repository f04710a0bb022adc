//! A request as mur writes one: method, endpoint, headers and a body held in
//! memory (so it can be sent again after an authorization), and the
//! [`Delivery`] that learns whether it reached the server's socket.

use bytes::Bytes;
use reqwest::Method;
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderName, HeaderValue};

use crate::delivery::Delivery;

#[derive(Debug, Clone)]
pub struct Request {
    pub(crate) method: Method,
    pub(crate) url: String,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
    pub(crate) delivery: Option<Delivery>,
}

impl Request {
    pub fn new(method: Method, url: &str) -> Self {
        Self {
            method,
            url: url.to_owned(),
            headers: HeaderMap::new(),
            body: Bytes::new(),
            delivery: None,
        }
    }

    pub fn get(url: &str) -> Self {
        Self::new(Method::GET, url)
    }

    pub fn post(url: &str) -> Self {
        Self::new(Method::POST, url)
    }

    pub fn delete(url: &str) -> Self {
        Self::new(Method::DELETE, url)
    }

    /// Sets `name` (replacing a value it had).
    pub fn header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.headers.insert(name, value);
        self
    }

    /// Sets every header of `headers` (replacing values they had).
    pub fn headers(mut self, headers: HeaderMap) -> Self {
        self.headers.extend(headers);
        self
    }

    pub fn body(mut self, body: impl Into<Bytes>) -> Self {
        self.body = body.into();
        self
    }

    /// Tells `delivery` when this request is handed to a connection, so that
    /// whoever gives up on the exchange (a timeout) can tell whether the server
    /// may have it ([`Delivery::sent`]).
    pub fn tracked(mut self, delivery: &Delivery) -> Self {
        self.delivery = Some(delivery.clone());
        self
    }

    /// `Authorization: Bearer <token>`, marked sensitive (kept out of debug output).
    pub fn bearer(self, token: &str) -> Self {
        match HeaderValue::from_str(&format!("Bearer {token}")) {
            Ok(mut value) => {
                value.set_sensitive(true);
                self.header(AUTHORIZATION, value)
            }
            // A token with bytes no header may carry is not sent; the server's
            // 401 then says what is missing.
            Err(_) => self,
        }
    }
}
