-- Driven by nvim_test.go: `nvim --headless --clean -u nvim_test.lua FILE`
-- with SHGUARD (the binary), RESULT (where to write what happened) and,
-- optionally, BASH_LS (bash-language-server's command, to run beside it).
-- It uses Neovim's built-in LSP client as a user's config would (the 0.7
-- API, Debian 12's Neovim): start shguard lsp on the buffer, wait for its
-- diagnostics, hover, ask for code actions, apply the fix with the
-- client's own workspace-edit code, save, quit.
local result = {}
local function finish()
  local f = io.open(os.getenv("RESULT"), "w")
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd("qa!")
end
local function fail(msg)
  result.error = msg
  finish()
end

-- The file is loaded after this script runs (-u): start at VimEnter.
local function main()
  local buf = vim.api.nvim_get_current_buf()
  local shguard = vim.lsp.start_client({
    name = "shguard",
    cmd = { os.getenv("SHGUARD"), "lsp" },
    root_dir = vim.fn.getcwd(),
    settings = { shguard = { severity = "info" } },
  })
  vim.lsp.buf_attach_client(buf, shguard)
  local bashls
  if os.getenv("BASH_LS") and os.getenv("BASH_LS") ~= "" then
    bashls = vim.lsp.start_client({
      name = "bashls",
      cmd = { os.getenv("BASH_LS"), "start" },
      root_dir = vim.fn.getcwd(),
    })
    vim.lsp.buf_attach_client(buf, bashls)
  end
  
  local function diags_of(id)
    local ns = vim.lsp.diagnostic.get_namespace(id)
    return vim.diagnostic.get(buf, { namespace = ns })
  end
  
  -- wait for shguard's diagnostics (and bash-language-server's, whose
  -- shellcheck reports the unquoted $1 of the test script)
  local ok = vim.wait(30000, function()
    if #diags_of(shguard) == 0 then return false end
    return bashls == nil or #diags_of(bashls) > 0
  end, 50)
  if not ok then
    return fail("no diagnostics: shguard " .. #diags_of(shguard) .. (bashls and (", bash-language-server " .. #diags_of(bashls)) or ""))
  end
  result.diagnostics = {}
  for _, d in ipairs(diags_of(shguard)) do
    table.insert(result.diagnostics, { code = d.code, lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, severity = d.severity, source = d.source, href = d.user_data and d.user_data.lsp and d.user_data.lsp.codeDescription and d.user_data.lsp.codeDescription.href })
  end
  if bashls then
    result.bashls = {}
    for _, d in ipairs(diags_of(bashls)) do
      table.insert(result.bashls, { code = tostring(d.code), source = d.source })
    end
    -- bash-language-server still answers its own requests on the buffer
    local syms = vim.lsp.buf_request_sync(buf, "textDocument/documentSymbol", { textDocument = vim.lsp.util.make_text_document_params(buf) }, 10000) or {}
    result.bashls_symbols = syms[bashls] and syms[bashls].result and #syms[bashls].result or 0
  end
  
  local first = diags_of(shguard)[1]
  local client = vim.lsp.get_client_by_id(shguard)
  local pos = { line = first.lnum, character = first.col + 1 }
  
  local hov = vim.lsp.buf_request_sync(buf, "textDocument/hover", { textDocument = vim.lsp.util.make_text_document_params(buf), position = pos }, 10000) or {}
  result.hover = hov[shguard] and hov[shguard].result and hov[shguard].result.contents.value or ""
  
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    range = { start = { line = first.lnum, character = first.col }, ["end"] = { line = first.end_lnum, character = first.end_col } },
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, first.lnum, {}, shguard) },
  }
  local answers = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 10000) or {}
  local actions = answers[shguard] and answers[shguard].result or {}
  result.actions = {}
  local chosen
  for _, a in ipairs(actions) do
    table.insert(result.actions, a.title)
    local want = os.getenv("ACTION")
    if not chosen and a.title:sub(1, #want) == want then chosen = a end
  end
  if not chosen then return fail("no action titled " .. tostring(os.getenv("ACTION"))) end
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  vim.cmd("write")
  
  -- after the edit, shguard's diagnostics for the new text
  local v = vim.lsp.util.buf_versions[buf]
  vim.wait(10000, function()
    for _, d in ipairs(diags_of(shguard)) do
      if d.code == first.code then return false end
    end
    return true
  end, 50)
  result.after = {}
  for _, d in ipairs(diags_of(shguard)) do table.insert(result.after, d.code) end
  finish()
end

vim.api.nvim_create_autocmd("VimEnter", { callback = function()
  local ok, err = pcall(main)
  if not ok then fail("lua error: " .. tostring(err)) end
end })
