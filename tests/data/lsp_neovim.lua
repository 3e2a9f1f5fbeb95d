-- Neovim (0.7 and later), headless: open a log with the built-in LSP client attached to
-- `kcref lsp`, wait for its diagnostics, ask for a completion, and write both as JSON.
-- Read from the environment: KCREF_PYTHON, KCREF_ROOT, KCREF_LOG, KCREF_OUT, KCREF_LINE, KCREF_COLUMN.
local env = function(name) return os.getenv(name) end
vim.cmd("edit " .. vim.fn.fnameescape(env("KCREF_LOG")))
local buf = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  name = "kcref",
  cmd = { env("KCREF_PYTHON"), "-m", "kcref", "lsp" },
  cmd_env = { PYTHONPATH = env("KCREF_ROOT") },
  root_dir = vim.fn.fnamemodify(env("KCREF_LOG"), ":h"),
})
vim.lsp.buf_attach_client(buf, client)
vim.wait(15000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local out = { diagnostics = {}, completion = {} }
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(out.diagnostics, { line = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity,
                                  code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
                                  message = d.message })
end
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) },
                 position = { line = tonumber(env("KCREF_LINE")), character = tonumber(env("KCREF_COLUMN")) } }
local answers = vim.lsp.buf_request_sync(buf, "textDocument/completion", params, 10000) or {}
for _, answer in pairs(answers) do
  local result = answer.result or {}
  for _, item in ipairs(result.items or result) do table.insert(out.completion, item.label) end
end
local file = io.open(env("KCREF_OUT"), "w")
file:write(vim.fn.json_encode(out))
file:close()
vim.lsp.stop_client(client)
vim.wait(2000, function() return vim.lsp.client_is_stopped(client) end, 50)
vim.cmd("qa!")
