//! The element tree of all windows: an arena in document order with parent links.

use super::element::{Element, Kind};

/// Index of a node in its [`Tree`].
pub type NodeId = usize;

#[derive(Debug, Clone)]
pub struct Node {
    pub element: Element,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
}

/// Windows and their elements. Nodes are stored parent-first (document order), which
/// lets visibility be resolved in one forward pass and makes query results ordered.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a window (a root).
    pub fn add_window(&mut self, element: Element) -> NodeId {
        self.insert(None, element)
    }

    /// Add an element under `parent`.
    pub fn add(&mut self, parent: NodeId, element: Element) -> NodeId {
        self.insert(Some(parent), element)
    }

    fn insert(&mut self, parent: Option<NodeId>, element: Element) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Node {
            element,
            parent,
            children: Vec::new(),
        });
        if let Some(parent) = parent {
            self.nodes[parent].children.push(id);
        }
        id
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    pub fn element(&self, id: NodeId) -> &Element {
        &self.nodes[id].element
    }

    pub fn element_mut(&mut self, id: NodeId) -> &mut Element {
        &mut self.nodes[id].element
    }

    /// All node ids in document order.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        0..self.nodes.len()
    }

    pub fn windows(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.ids().filter(|&id| self.nodes[id].parent.is_none())
    }

    /// The window with the given element id (`main`, `about`).
    pub fn window(&self, name: &str) -> Option<NodeId> {
        self.windows().find(|&id| self.nodes[id].element.id == name)
    }

    /// The window that contains `id`.
    pub fn window_of(&self, mut id: NodeId) -> NodeId {
        while let Some(parent) = self.nodes[id].parent {
            id = parent;
        }
        id
    }

    pub fn find_id(&self, element_id: &str) -> Option<NodeId> {
        self.ids()
            .find(|&id| self.nodes[id].element.id == element_id)
    }

    pub fn is_ancestor(&self, ancestor: NodeId, mut id: NodeId) -> bool {
        while let Some(parent) = self.nodes[id].parent {
            if parent == ancestor {
                return true;
            }
            id = parent;
        }
        false
    }

    /// `id` and everything below it, in document order.
    pub fn subtree(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = vec![id];
        let mut index = 0;
        while index < out.len() {
            let children = &self.nodes[out[index]].children;
            out.splice(index + 1..index + 1, children.iter().copied());
            index += 1;
        }
        out
    }

    /// Make `visible` mean "a person could see it": an element is visible only if its
    /// parent is, and a child of a clipping container only if it overlaps the viewport.
    pub fn resolve_visibility(&mut self) {
        for id in 0..self.nodes.len() {
            let Some(parent) = self.nodes[id].parent else {
                continue;
            };
            let parent = &self.nodes[parent].element;
            let inside = !parent.kind.clips_children()
                || parent.bounds.intersects(&self.nodes[id].element.bounds);
            let parent_visible = parent.visible;
            let element = &mut self.nodes[id].element;
            element.visible &= parent_visible && inside;
        }
    }

    /// The nearest ancestor of `id` of the given kind.
    pub fn ancestor_of_kind(&self, mut id: NodeId, kind: Kind) -> Option<NodeId> {
        while let Some(parent) = self.nodes[id].parent {
            if self.nodes[parent].element.kind == kind {
                return Some(parent);
            }
            id = parent;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::Rect;

    #[test]
    fn subtree_is_in_document_order() {
        let mut tree = Tree::new();
        let w = tree.add_window(Element::new(Kind::Window, "w", "", ""));
        let a = tree.add(w, Element::new(Kind::Panel, "a", "", ""));
        let b = tree.add(w, Element::new(Kind::Panel, "b", "", ""));
        let a1 = tree.add(a, Element::new(Kind::Text, "a1", "", ""));
        assert_eq!(tree.subtree(w), vec![w, a, a1, b]);
        assert!(tree.is_ancestor(w, a1));
        assert!(!tree.is_ancestor(b, a1));
    }

    #[test]
    fn children_outside_a_clipping_viewport_are_hidden() {
        let mut tree = Tree::new();
        let w =
            tree.add_window(Element::new(Kind::Window, "w", "", "").at(Rect::new(0, 0, 100, 100)));
        let list = tree.add(
            w,
            Element::new(Kind::List, "l", "", "").at(Rect::new(0, 0, 100, 20)),
        );
        let inside = tree.add(
            list,
            Element::new(Kind::ListItem, "in", "", "").at(Rect::new(0, 0, 100, 10)),
        );
        let outside = tree.add(
            list,
            Element::new(Kind::ListItem, "out", "", "").at(Rect::new(0, 30, 100, 10)),
        );
        tree.resolve_visibility();
        assert!(tree.element(inside).visible);
        assert!(!tree.element(outside).visible);
    }
}
