-- Everything one call's limits need, in one command on a single Redis server. KEYS: minute window,
-- monthly counter, key total, key daily hash; ARGV: calls, window seconds, per-minute limit,
-- monthly limit, monthly counter's expiry (ms epoch), then countKeyCalls' today, oldest day kept
-- and hash lifetime. Returns admitCalls' five figures and the key's total, or {-1} when a counter
-- is missing (nothing counted).
if redis.call('EXISTS', KEYS[2]) == 0 or redis.call('EXISTS', KEYS[3]) == 0 then return {-1} end
local admitted = admitCalls(KEYS[1], ARGV[1], ARGV[2], ARGV[3], KEYS[2], ARGV[4], ARGV[5])
admitted[6] = countKeyCalls(KEYS[3], KEYS[4], ARGV[6], ARGV[7], ARGV[8], ARGV[1])
return admitted
