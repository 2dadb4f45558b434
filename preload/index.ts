// Preload: the only bridge from the sandboxed renderer to main; the contract-built bridge arrives in a later issue.
