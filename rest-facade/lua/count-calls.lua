-- The counts of a turn's calls of one key (common/platform/turn-batch.ts), shared by the scripts
-- of rest-facade/src/limits/usage-scripts.ts. A counter that is missing (Redis lost it, or it was
-- never made: a new month, a new key) is never made by counting in it: the scripts answer -1 and
-- count nothing, and the keys subgraph sets it from the usage ledger first.

-- countMonthly(counter, calls admitted by the minute, monthly limit, counter expiry in ms epoch)
-- returns {calls counted, the count after them}: as many as the quota has room for, in one step,
-- so N concurrent requests against a quota of L admit exactly L, across any number of facade
-- instances.
local function countMonthly(counter, wanted, limit, expiry)
  local used = tonumber(redis.call('GET', counter) or '0')
  local take = math.min(tonumber(wanted), tonumber(limit) - used)
  if take <= 0 then return {0, used} end
  used = redis.call('INCRBY', counter, take)
  if used == take then redis.call('PEXPIREAT', counter, expiry) end
  return {take, used}
end

-- countKeyCalls(total, daily hash, today YYYY-MM-DD, oldest day kept YYYY-MM-DD, hash lifetime
-- ms, calls) returns the key's total after them, or -1 when the total is missing. The first calls
-- of a day drop the days that left the window (dates compare as strings) and extend the hash's
-- life, so an unused key's hash goes away.
local function countKeyCalls(total, daily, today, oldest, lifetime, calls)
  if redis.call('EXISTS', total) == 0 then return -1 end
  local sum = redis.call('INCRBY', total, calls)
  if redis.call('HINCRBY', daily, today, calls) == tonumber(calls) then
    for _, day in ipairs(redis.call('HKEYS', daily)) do
      if day < oldest then redis.call('HDEL', daily, day) end
    end
    redis.call('PEXPIRE', daily, lifetime)
  end
  return sum
end
