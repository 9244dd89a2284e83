#!/usr/bin/env node
// The CLI is TypeScript run through tsx, as every other entry point of the workspace is.
require('tsx/cjs');
require('../src/main.ts');
