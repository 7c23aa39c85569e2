-- A turn's calls of one key admitted in one step (needs openWindow and countMonthly): the
-- per-minute window admits as many as it has room for, the month counts as many of those as the
-- quota has room for, and only the calls the month counted keep their minute point (a call refused
-- for the month does not use the minute). Returns {the window's count before, calls the minute
-- admitted, calls the month counted, the monthly count, the window's ms left}, or {-1} when the
-- monthly counter is missing.
local function admitCalls(window, calls, seconds, perMinute, counter, perMonth, expiry)
  if redis.call('EXISTS', counter) == 0 then return {-1} end
  local used, ttl = openWindow(window, seconds)
  local room = math.max(0, math.min(tonumber(calls), tonumber(perMinute) - used))
  local taken, month = 0, tonumber(redis.call('GET', counter) or '0')
  if room > 0 then
    local counted = countMonthly(counter, room, perMonth, expiry)
    taken, month = counted[1], counted[2]
  end
  if taken > 0 then redis.call('INCRBY', window, taken) end
  return {used, room, taken, month, ttl}
end
