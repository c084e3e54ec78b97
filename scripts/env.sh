# Sourced by the scripts: the tool PATH and the environment trunk wants.
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
unset NO_COLOR   # trunk 0.21 rejects NO_COLOR=1
