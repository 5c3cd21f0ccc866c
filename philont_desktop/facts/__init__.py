"""The Facts tab: namespaces, facts with their decay, curves, the forget pool and fact curation."""
