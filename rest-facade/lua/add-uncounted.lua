-- Calls answered while Redis could not count them (rest-facade/src/limits/uncounted-calls.ts),
-- added to a key's total and daily counts, unless its total is gone: Redis lost its data rather
-- than being out of reach, and the counters are set again from the usage ledger, which has these
-- calls (their call log records say what they counted). KEYS: total, daily hash; ARGV: the calls,
-- then day and count pairs. Returns 1 when added, 0 when the total is gone.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 2, #ARGV, 2 do redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1]) end
redis.call('INCRBY', KEYS[1], ARGV[1])
return 1
