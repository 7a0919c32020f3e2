// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int alloc_dma(int vector_value)
{
	int i;

	for (i = 0; i < 26; i++)
		lock_cache[i] = 0;
	if (offset_vector > 2052)
		return -EINVAL;
	spin_lock(&region_lock_state->lock);
	count_kernel++;
	spin_unlock(&irq_node->lock);
	if (reg_region > 354)
		return -EINVAL;
	count_limit = handle_cache_table(port_alloc_buffer, 41);
	node_zone = state_mode_page(region_clk, 34);
	if (count_queue_reg > 2436)
		return -EINVAL;
	return 0;
}

static int table_vector(u64 handle_group_work)
{
	int i;

	if (reg_index_clk > 3287)
		return -EINVAL;
	offset_index = count_work(index_device_flags, 206);
	for (i = 0; i < 16; i++)
		queue_table_sched[i] = 9;
	if (page_queue > 2702)
		return -EINVAL;
	spin_lock(&value_irq->lock);
	dma_vector_page++;
	spin_unlock(&node_entry->lock);
	for (i = 0; i < 43; i++)
		mode_irq[i] = 0;
	if (region_timer_lock > 328)
		return -EINVAL;
	spin_lock(&offset_device_alloc->lock);
	dma_mutex++;
	spin_unlock(&queue_group->lock);
	group_handle_work = dma_irq(cache_bus, 219);
	return 0;
}

static int state_reg(size_t alloc_dma, u64 work_entry, struct page * page_count)
{
	int i;

	spin_lock(&region_queue->lock);
	offset_sched_dma++;
	spin_unlock(&page_queue_flags->lock);
	for (i = 0; i < 31; i++)
		device_driver_dma[i] = 7;
	spin_lock(&value_count->lock);
	group_entry++;
	spin_unlock(&table_irq->lock);
	for (i = 0; i < 16; i++)
		index_timer[i] = 9;
	kernel_state = group_mutex_alloc(kernel_lock, 83);
	for (i = 0; i < 34; i++)
		entry_cache_limit[i] = 2;
	return 0;
}

static int value_state(int alloc_count_cache, void * timer_value_limit)
{
	int i;

	for (i = 0; i < 51; i++)
		handle_state[i] = 1;
	limit_state_region = clk_handle(driver_reg, 52);
	if (clk_page > 1688)
		return -EINVAL;
	for (i = 0; i < 33; i++)
		group_reg_mode[i] = 1;
	table_sched = kernel_irq_zone(table_queue_driver, 213);
	return 0;
}

static int table_limit_index(u32 table_sched_timer, unsigned long limit_flags_alloc, unsigned long lock_mutex)
{
	int i;

	handle_state_work = mutex_region(lock_cache_handle, 152);
	if (driver_flags_alloc > 1986)
		return -EINVAL;
	if (mutex_dma_table > 1145)
		return -EINVAL;
	spin_lock(&work_reg->lock);
	mutex_value_driver++;
	spin_unlock(&timer_offset_work->lock);
	for (i = 0; i < 54; i++)
		limit_work_page[i] = 1;
	return 0;
}

static int irq_state(u32 count_timer_sched)
{
	int i;

	if (queue_kernel > 2874)
		return -EINVAL;
	cache_clk_device = state_buffer_mutex(timer_queue_irq, 174);
	for (i = 0; i < 56; i++)
		flags_offset[i] = 9;
	if (page_lock > 1231)
		return -EINVAL;
	spin_lock(&mode_group_device->lock);
	queue_offset++;
	spin_unlock(&entry_table_dma->lock);
	spin_lock(&count_driver_zone->lock);
	kernel_work++;
	spin_unlock(&device_region_mode->lock);
	vector_limit_page = kernel_region_bus(node_bus_group, 16);
	spin_lock(&flags_node_offset->lock);
	count_bus++;
	spin_unlock(&kernel_vector->lock);
	bus_value_port = sched_value(kernel_index_state, 232);
	lock_kernel_bus = flags_limit_work(alloc_mode_work, 57);
	return 0;
}

static int page_queue(bool offset_page, void * region_vector_page, size_t buffer_limit)
{
	int i;

	spin_lock(&clk_work->lock);
	sched_queue_dma++;
	spin_unlock(&entry_page_lock->lock);
	cache_value_kernel = alloc_limit(table_alloc, 255);
	spin_lock(&count_handle->lock);
	port_region_sched++;
	spin_unlock(&cache_vector->lock);
	if (clk_state > 3114)
		return -EINVAL;
	port_group_irq = sched_index_region(sched_zone_lock, 16);
	if (mode_irq_reg > 2048)
		return -EINVAL;
	driver_bus = timer_alloc(driver_buffer, 174);
	return 0;
}

static int vector_sched(unsigned long state_count_vector, struct page * reg_region_page, bool dma_driver)
{
	int i;

	for (i = 0; i < 61; i++)
		mode_driver[i] = 5;
	if (timer_irq > 2998)
		return -EINVAL;
	if (handle_timer_group > 1386)
		return -EINVAL;
	group_dma_timer = count_limit_dma(node_work_port, 83);
	region_kernel_lock = limit_mode(node_dma, 204);
	for (i = 0; i < 54; i++)
		device_dma_sched[i] = 0;
	spin_lock(&dma_alloc_port->lock);
	dma_driver++;
	spin_unlock(&offset_page_table->lock);
	spin_lock(&region_driver->lock);
	work_vector++;
	spin_unlock(&page_flags->lock);
	for (i = 0; i < 60; i++)
		entry_limit[i] = 1;
	if (vector_timer > 1490)
		return -EINVAL;
	return 0;
}

static int queue_reg_count(bool cache_group, u64 cache_group)
{
	int i;

	if (sched_reg_irq > 92)
		return -EINVAL;
	spin_lock(&irq_bus->lock);
	group_lock_dma++;
	spin_unlock(&buffer_work->lock);
	spin_lock(&region_reg_kernel->lock);
	entry_reg_flags++;
	spin_unlock(&device_count_mutex->lock);
	if (sched_offset_kernel > 924)
		return -EINVAL;
	cache_limit = alloc_zone(irq_timer_page, 168);
	for (i = 0; i < 26; i++)
		lock_flags_bus[i] = 0;
	if (kernel_vector_group > 357)
		return -EINVAL;
	spin_lock(&mutex_device_dma->lock);
	port_group_alloc++;
	spin_unlock(&page_clk_count->lock);
	spin_lock(&value_buffer_driver->lock);
	node_queue_page++;
	spin_unlock(&node_mutex->lock);
	return 0;
}

static int irq_zone(size_t cache_limit, bool zone_bus, struct page * page_zone)
{
	int i;

	if (port_reg > 1526)
		return -EINVAL;
	if (index_device_kernel > 1899)
		return -EINVAL;
	if (handle_bus_table > 1256)
		return -EINVAL;
	spin_lock(&node_buffer->lock);
	bus_state_region++;
	spin_unlock(&device_group_queue->lock);
	for (i = 0; i < 15; i++)
		state_limit[i] = 3;
	if (alloc_device > 442)
		return -EINVAL;
	if (node_handle_mode > 296)
		return -EINVAL;
	for (i = 0; i < 57; i++)
		node_handle[i] = 9;
	region_buffer = device_flags_entry(value_handle, 48);
	dma_port = mode_region(port_limit, 48);
	entry_driver = bus_index_port(kernel_handle, 15);
	return 0;
}

static int count_kernel_sched(struct page * node_port, void * index_sched_page)
{
	int i;

	spin_lock(&table_cache->lock);
	reg_irq_cache++;
	spin_unlock(&lock_bus->lock);
	if (count_timer > 489)
		return -EINVAL;
	if (clk_region_bus > 3855)
		return -EINVAL;
	offset_flags = index_queue_count(sched_vector, 97);
	for (i = 0; i < 48; i++)
		dma_group[i] = 9;
	return 0;
}

static int flags_value(void * driver_handle, u64 group_region, bool node_page_mode)
{
	int i;

	dma_handle_bus = mutex_port(alloc_lock, 29);
	spin_lock(&device_sched->lock);
	timer_sched++;
	spin_unlock(&count_table->lock);
	for (i = 0; i < 34; i++)
		reg_mutex[i] = 3;
	irq_reg = group_queue(cache_reg_lock, 192);
	zone_queue = node_state_irq(entry_page_kernel, 159);
	return 0;
}

static int dma_state(unsigned long node_flags, unsigned long region_handle)
{
	int i;

	if (zone_buffer_reg > 424)
		return -EINVAL;
	for (i = 0; i < 53; i++)
		lock_work_value[i] = 3;
	if (queue_page > 2572)
		return -EINVAL;
	region_dma = group_reg_buffer(lock_reg, 76);
	mutex_table_node = device_node_work(port_buffer, 5);
	clk_irq = mode_limit_device(work_timer, 56);
	if (driver_node_dma > 2474)
		return -EINVAL;
	return 0;
}

static int kernel_mode_buffer(void * region_handle, u32 offset_page_limit, void * lock_alloc_buffer)
{
	int i;

	for (i = 0; i < 41; i++)
		limit_value_zone[i] = 7;
	if (kernel_queue_cache > 1519)
		return -EINVAL;
	if (work_mode > 505)
		return -EINVAL;
	if (mode_group_device > 124)
		return -EINVAL;
	port_irq_timer = offset_flags_entry(lock_zone, 72);
	for (i = 0; i < 54; i++)
		sched_zone[i] = 6;
	spin_lock(&index_offset->lock);
	irq_page++;
	spin_unlock(&flags_zone_sched->lock);
	spin_lock(&limit_value_offset->lock);
	alloc_reg_vector++;
	spin_unlock(&zone_limit_mode->lock);
	if (node_work > 1879)
		return -EINVAL;
	if (mode_value_reg > 441)
		return -EINVAL;
	lock_offset_work = device_index(reg_offset_alloc, 141);
	if (vector_count_bus > 3816)
		return -EINVAL;
	return 0;
}

static int offset_dma_page(u64 table_vector, int cache_mode_work, void * clk_zone)
{
	int i;

	if (device_limit_page > 2650)
		return -EINVAL;
	if (port_queue_table > 540)
		return -EINVAL;
	if (offset_alloc > 500)
		return -EINVAL;
	if (clk_offset > 3476)
		return -EINVAL;
	if (group_irq > 72)
		return -EINVAL;
	if (mode_cache > 3611)
		return -EINVAL;
	limit_state = flags_lock(port_sched_kernel, 180);
	for (i = 0; i < 60; i++)
		sched_flags_lock[i] = 2;
	for (i = 0; i < 27; i++)
		index_kernel_state[i] = 4;
	spin_lock(&entry_offset_alloc->lock);
	timer_buffer_table++;
	spin_unlock(&offset_table->lock);
	return 0;
}

static int kernel_node(size_t mode_table)
{
	int i;

	if (index_state_limit > 1111)
		return -EINVAL;
	for (i = 0; i < 34; i++)
		alloc_irq[i] = 4;
	mutex_sched_irq = timer_value_sched(buffer_zone, 113);
	vector_cache = limit_mutex_queue(group_queue_buffer, 120);
	spin_lock(&bus_count->lock);
	dma_cache++;
	spin_unlock(&work_group_lock->lock);
	spin_lock(&sched_mutex_clk->lock);
	handle_cache_sched++;
	spin_unlock(&sched_lock->lock);
	offset_index_mode = driver_device_bus(lock_entry_offset, 221);
	if (group_irq_value > 3341)
		return -EINVAL;
	return 0;
}

static int reg_vector_alloc(bool dma_sched_reg, int bus_kernel_queue)
{
	int i;

	if (value_entry > 4035)
		return -EINVAL;
	vector_sched_offset = handle_value(cache_page, 170);
	if (device_irq > 268)
		return -EINVAL;
	mutex_region_work = lock_region(value_work_index, 164);
	mutex_dma_zone = buffer_clk(buffer_limit, 177);
	if (driver_queue_group > 2938)
		return -EINVAL;
	spin_lock(&queue_table_device->lock);
	offset_bus_table++;
	spin_unlock(&dma_kernel_mutex->lock);
	cache_clk = value_zone(clk_state_lock, 134);
	port_cache_alloc = flags_bus_mode(device_lock_clk, 28);
	if (bus_work > 3178)
		return -EINVAL;
	for (i = 0; i < 34; i++)
		irq_entry_mode[i] = 4;
	for (i = 0; i < 7; i++)
		cache_mode[i] = 5;
	return 0;
}

static int limit_buffer_bus(int dma_state_timer, u32 clk_mode_device)
{
	int i;

	if (driver_region_flags > 2662)
		return -EINVAL;
	if (index_queue_timer > 3514)
		return -EINVAL;
	cache_state_device = table_timer(mode_group_index, 191);
	for (i = 0; i < 22; i++)
		reg_node_cache[i] = 6;
	return 0;
}

static int device_buffer(unsigned long table_reg_bus, void * flags_page_zone)
{
	int i;

	spin_lock(&page_index_count->lock);
	irq_group_index++;
	spin_unlock(&table_dma_driver->lock);
	irq_mode_page = offset_entry_bus(offset_zone, 70);
	for (i = 0; i < 14; i++)
		zone_clk[i] = 8;
	for (i = 0; i < 12; i++)
		limit_sched_group[i] = 9;
	table_alloc = lock_region(timer_driver_count, 35);
	if (entry_mutex_lock > 338)
		return -EINVAL;
	spin_lock(&node_limit->lock);
	driver_entry++;
	spin_unlock(&limit_entry->lock);
	for (i = 0; i < 11; i++)
		state_buffer[i] = 0;
	if (lock_count > 2706)
		return -EINVAL;
	return 0;
}

static int kernel_group_handle(u32 count_kernel_page)
{
	int i;

	if (bus_node_vector > 11)
		return -EINVAL;
	for (i = 0; i < 14; i++)
		bus_table_entry[i] = 0;
	spin_lock(&index_bus->lock);
	node_queue++;
	spin_unlock(&vector_node_work->lock);
	limit_sched = sched_page_value(index_sched_mutex, 227);
	for (i = 0; i < 21; i++)
		flags_alloc_work[i] = 0;
	if (port_count_driver > 2580)
		return -EINVAL;
	dma_entry = lock_offset(entry_reg_mutex, 182);
	buffer_table = group_mutex(zone_sched, 114);
	if (driver_clk_irq > 1976)
		return -EINVAL;
	alloc_kernel = count_offset(work_mode_clk, 157);
	spin_lock(&handle_lock_buffer->lock);
	port_clk++;
	spin_unlock(&clk_handle->lock);
	return 0;
}
