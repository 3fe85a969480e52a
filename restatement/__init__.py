"""An independent restatement of The Bottle Imp's rules, written from the sources only (see README.md)."""
