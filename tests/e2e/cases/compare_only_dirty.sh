"$TD" compare "$EX/upstream" "$EX/vendor" --only dirty --include 'drivers/' --exclude '*.rst'
