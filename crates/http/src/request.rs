//! A request as mur writes one: method, endpoint, headers and a body held in
//! memory (so it can be sent again after an authorization), the
//! [`Delivery`] that learns whether it reached the server's socket, and
//! whether it may be sent twice.

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
    pub(crate) repeatable: bool,
}

impl Request {
    pub fn new(method: Method, url: &str) -> Self {
        Self {
            method,
            url: url.to_owned(),
            headers: HeaderMap::new(),
            body: Bytes::new(),
            delivery: None,
            repeatable: false,
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

    /// Marks this request as one that does nothing more when the server gets it
    /// twice (`initialize`, `notifications/initialized`, `tools/list`, `ping`), as
    /// a GET, HEAD or OPTIONS is without it: written on a kept connection that the
    /// server then closed without answering, it is sent once more on a new one.
    /// Never for a request that acts (`tools/call`): the server may have read it
    /// and begun before it closed the connection (a session stopping for a reload).
    pub fn repeatable(mut self) -> Self {
        self.repeatable = true;
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
