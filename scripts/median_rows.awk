# Merges benchmark rounds ("metric size value" lines): each row's median over
# the rounds, rows in first-seen order. The median, not the best: the VM these
# runs share switches between a fast and a slow phase for seconds at a time
# (its two vCPUs sharing one physical core or not: 1-byte latency 0.06 or
# 0.25 us), and the best of the rounds rewarded whichever library met a fast
# phase.
NF == 3 {
    k = $1 " " $2
    if (!(k in n)) order[rows++] = k
    v[k, n[k]++] = $3 + 0
}
END {
    for (i = 0; i < rows; i++) {
        k = order[i]
        m = n[k]
        for (a = 0; a < m; a++) s[a] = v[k, a]
        for (a = 1; a < m; a++) {
            x = s[a]
            for (b = a - 1; b >= 0 && s[b] > x; b--) s[b + 1] = s[b]
            s[b + 1] = x
        }
        print k, s[int((m - 1) / 2)]
    }
}
